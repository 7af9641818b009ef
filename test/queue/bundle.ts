import { existsSync, symlinkSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { build } from 'rolldown';

const PROJECT_NODE_MODULES = resolve(import.meta.dirname, '../../node_modules');

/**
 * Bundles a TypeScript entry (and our sources it imports) into one .mjs that plain Node
 * runs. Packages stay external; a node_modules link next to the output lets them resolve
 * from a temp folder without writing into the checkout.
 */
export async function bundleEntry(entry: string, outFile: string): Promise<void> {
  await build({
    input: entry,
    platform: 'node',
    external: (id) => !id.startsWith('.') && !isAbsolute(id) && !id.startsWith('\0'),
    output: { file: outFile, format: 'esm' },
    logLevel: 'silent',
  });
  const link = join(dirname(outFile), 'node_modules');
  if (!existsSync(link)) symlinkSync(PROJECT_NODE_MODULES, link, 'dir');
}
