// Startup benchmark (figures, not a test): `npm run bench:startup` (needs `npm run build`).
// `judge-lab --version` and `--help`: wall time, CPU-seconds and peak RSS of the command's own
// process (read inside it at exit through process.resourceUsage()), the median of RUNS starts;
// and `judge-lab serve`: start → first page (the UI's index.html answered with the token).
// Targets (issue 27): ≤ 0.3 CPU-s and ≤ 80 MB; first page ≤ 0.6 s on an idle machine.
import { spawn, spawnSync } from 'node:child_process';
import console from 'node:console';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'judge-lab.mjs');
const runs = Number(process.env.RUNS ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'judge-lab-startup-'));
const figures = join(dir, 'usage.json');
// Runs in the command's process: its own CPU time and peak RSS when it exits.
const probe = `data:text/javascript,${encodeURIComponent(
  `import{writeFileSync}from'node:fs';process.on('exit',()=>{const u=process.resourceUsage();` +
    `writeFileSync(${JSON.stringify(figures)},JSON.stringify({cpu:(u.userCPUTime+u.systemCPUTime)/1e6,rssMB:u.maxRSS/1024}))})`,
)}`;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function command(args) {
  const rows = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, ['--import', probe, bin, ...args], { encoding: 'utf8' });
    const wall = Number(process.hrtime.bigint() - t0) / 1e9;
    if (r.status !== 0) throw new Error(`judge-lab ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    rows.push({ wall, ...JSON.parse(readFileSync(figures, 'utf8')) });
  }
  const cpu = median(rows.map((r) => r.cpu));
  const rss = median(rows.map((r) => r.rssMB));
  console.log(
    `judge-lab ${args.join(' ').padEnd(9)}  wall ${median(rows.map((r) => r.wall)).toFixed(2)} s  ` +
      `CPU ${cpu.toFixed(2)} s (target ≤ 0.3: ${cpu <= 0.3 ? 'met' : 'not met'})  ` +
      `peak RSS ${rss.toFixed(0)} MB (target ≤ 80: ${rss <= 80 ? 'met' : 'not met'})`,
  );
}

async function servePage() {
  const t0 = process.hrtime.bigint();
  const child = spawn(process.execPath, [bin, 'serve', '--data-dir', join(dir, 'data')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const url = await new Promise((res, rej) => {
    child.stdout.on('data', (c) => {
      out += c;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(out);
      if (m) res(m[1]);
    });
    child.once('exit', (code) => rej(new Error(`serve exited ${code}: ${out}`)));
  });
  const printed = Number(process.hrtime.bigint() - t0) / 1e9;
  const res = await globalThis.fetch(url);
  await res.text();
  const page = Number(process.hrtime.bigint() - t0) / 1e9;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  if (!res.ok) throw new Error(`first page: HTTP ${res.status}`);
  return { printed, page };
}

try {
  console.log(`Node ${process.version}, load ${loadavg()[0].toFixed(1)}, median of ${runs} starts`);
  const bare = spawnSync(process.execPath, ['--import', probe, '-e', '0']);
  if (bare.status === 0) {
    const b = JSON.parse(readFileSync(figures, 'utf8'));
    console.log(`node -e 0 (for scale)  CPU ${b.cpu.toFixed(2)} s  peak RSS ${b.rssMB.toFixed(0)} MB`);
  }
  command(['--version']);
  command(['--help']);
  const pages = [];
  for (let i = 0; i < Math.min(runs, 3); i++) pages.push(await servePage());
  const page = median(pages.map((p) => p.page));
  console.log(
    `judge-lab serve  URL printed after ${median(pages.map((p) => p.printed)).toFixed(2)} s, ` +
      `first page after ${page.toFixed(2)} s (target ≤ 0.6 s idle: ${page <= 0.6 ? 'met' : 'not met'})`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
