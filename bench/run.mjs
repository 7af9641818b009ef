// Runs a TypeScript benchmark: `node bench/run.mjs <name> [args]` bundles bench/<name>.ts
// with rolldown (packages stay external) into a temp folder and runs it with this Node.
// BENCH_NODE_ARGS adds Node options for the benchmark's own process only (not its children),
// e.g. BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" or "--heap-prof" or "--expose-gc".
import { spawn } from 'node:child_process';
import console from 'node:console';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const [name, ...args] = process.argv.slice(2);
if (!name || !/^[a-z0-9-]+$/.test(name)) {
  console.error('usage: node bench/run.mjs <name> [args]   (runs bench/<name>.ts)');
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'judge-lab-bench-'));
const out = join(dir, `${name}.mjs`);
try {
  await build({
    input: join(root, 'bench', `${name}.ts`),
    platform: 'node',
    external: (id) => !id.startsWith('.') && !isAbsolute(id) && !id.startsWith('\0'),
    output: { file: out, format: 'esm' },
    logLevel: 'silent',
  });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const code = await new Promise((res) => {
    const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
    const child = spawn(process.execPath, [...nodeArgs, out, ...args], { stdio: 'inherit' });
    child.on('exit', (c, signal) => res(c ?? (signal ? 1 : 0)));
  });
  process.exitCode = code;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
