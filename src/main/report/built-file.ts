// Files the build writes beside the main bundle (out/main: the PNG worker, ECharts' ASCII copy),
// found from the chunk this code was bundled into: out/main itself or out/main/chunks.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built file `name` beside the main bundle, or null (runs from source have none). */
export function builtFile(name: string): string | null {
  const here = dirname(fileURLToPath(import.meta.url));
  return [join(here, name), join(here, '..', name)].find((f) => existsSync(f)) ?? null;
}
