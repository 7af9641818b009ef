// The published reference script beside Judge Lab (issue 39): `REF_DIR` is a checkout of it and
// `REF_CMD` the shell command that runs it there. It gets the same study's pairs and a mock of its
// own with the same rate limit and latency, so both sides pay the same provider, and it is measured
// from outside: python3's getrusage(RUSAGE_CHILDREN) gives the CPU-seconds of its whole process
// tree and the peak RSS of its largest process (a script may start helpers; Judge Lab's own figure
// is its one process's). Nothing of the reference ships here: the user brings it.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PairRecord } from '../../test/mock-provider/bias-responder';
import type { MockStats } from './mock-process';

/** What runReference needs of a mock: its URL and its counts so far. */
export interface ReferenceMock {
  url: string;
  stats(): Promise<MockStats>;
}

export interface ReferenceRun {
  /** The reference's checkout: the command runs there. */
  dir: string;
  /**
   * The command, run by `sh -c`; `{data}` (a JSONL file of the pairs: id, instruction, output_1,
   * output_2, label), `{base_url}` (the mock's OpenAI-compatible base URL), `{model}` (the judge)
   * and `{out}` (an empty folder for its output) are replaced, each quoted for the shell.
   */
  command: string;
  /** The pairs, as the study's dataset holds them (written one JSON object per line). */
  pairs: readonly PairRecord[];
  model: string;
  rpm: number;
  python?: string;
}

export interface ReferenceFigures {
  code: number;
  command: string;
  wallS: number;
  cpuS: number;
  userS: number;
  sysS: number;
  /** Peak RSS of the largest process of the tree (ru_maxrss of RUSAGE_CHILDREN). */
  peakRssMiB: number;
  calls: number;
  byModel: Record<string, number>;
  errors: number;
  /** The busiest model's calls at the rate limit, as for Judge Lab's own figures. */
  boundS: number;
  /** The last lines the command wrote to stderr (its error, when it failed). */
  stderrTail: string;
}

// Runs argv[2:] and writes what the kernel counted for it (and its children) to argv[1].
const MEASURE = [
  'import json, resource, subprocess, sys, time',
  't = time.monotonic()',
  'code = subprocess.call(sys.argv[2:])',
  'wall = time.monotonic() - t',
  'r = resource.getrusage(resource.RUSAGE_CHILDREN)',
  'open(sys.argv[1], "w").write(json.dumps({"code": code, "wall": wall, "user": r.ru_utime, "sys": r.ru_stime, "maxrss": r.ru_maxrss}))',
].join('\n');

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** REF_CMD with its placeholders replaced; an unknown `{name}` is an error, not left as text. */
export function referenceCommand(command: string, values: Record<string, string>): string {
  return command.replace(/\{([a-z_]+)\}/g, (whole, name: string) => {
    if (!(name in values))
      throw new Error(
        `REF_CMD: unknown placeholder ${whole} (known: ${Object.keys(values)
          .map((k) => `{${k}}`)
          .join(', ')})`,
      );
    return shellQuote(values[name]);
  });
}

export async function runReference(mock: ReferenceMock, run: ReferenceRun): Promise<ReferenceFigures> {
  const work = mkdtempSync(join(tmpdir(), 'judge-lab-bench-reference-'));
  try {
    const data = join(work, 'pairs.jsonl');
    writeFileSync(data, run.pairs.map((p) => `${JSON.stringify(p)}\n`).join(''));
    const out = join(work, 'out');
    const command = referenceCommand(run.command, {
      data,
      base_url: `${mock.url}/v1`,
      model: run.model,
      out,
    });
    const figures = join(work, 'rusage.json');
    const before = await mock.stats();
    let stderr = '';
    const spawned = await new Promise<number>((done, fail) => {
      const child = spawn(
        run.python ?? 'python3',
        ['-c', MEASURE, figures, 'sh', '-c', `mkdir -p ${shellQuote(out)} && ${command}`],
        {
          cwd: run.dir,
          stdio: ['ignore', 'ignore', 'pipe'],
          env: {
            ...process.env,
            OPENAI_BASE_URL: `${mock.url}/v1`,
            OPENAI_API_KEY: 'sk-mock',
            ANTHROPIC_BASE_URL: mock.url,
            ANTHROPIC_API_KEY: 'sk-mock',
          },
        },
      );
      child.stderr.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString()).slice(-4000);
      });
      child.on('error', (err) =>
        fail(
          new Error(
            `REF_CMD: cannot start ${run.python ?? 'python3'} to measure the reference: ${err.message}`,
          ),
        ),
      );
      child.on('exit', (code) => done(code ?? 1));
    });
    let own: { code: number; wall: number; user: number; sys: number; maxrss: number };
    try {
      own = JSON.parse(readFileSync(figures, 'utf8')) as typeof own;
    } catch {
      throw new Error(
        `REF_CMD: the measuring python3 exited ${spawned} without figures: ${stderr.trim().slice(-500)}`,
      );
    }
    const after = await mock.stats();
    const byModel: Record<string, number> = {};
    for (const [model, n] of Object.entries(after.byModel)) {
      const d = n - (before.byModel[model] ?? 0);
      if (d > 0) byModel[model] = d;
    }
    const ok = (s: MockStats) => s.byStatus['200'] ?? 0;
    const calls = after.total - before.total;
    const errors = calls - (ok(after) - ok(before));
    return {
      code: own.code,
      command,
      wallS: own.wall,
      cpuS: own.user + own.sys,
      userS: own.user,
      sysS: own.sys,
      // Linux reports ru_maxrss in KiB.
      peakRssMiB: own.maxrss / 1024,
      calls,
      byModel,
      errors,
      // Answered calls for one model (a rejected call costs the lane nothing); the busiest model's
      // calls, rejections included, when the reference asked several (the mock counts per model only).
      boundS:
        ((Object.keys(byModel).length === 1 ? calls - errors : Math.max(0, ...Object.values(byModel))) /
          run.rpm) *
        60,
      stderrTail: stderr.trim().split('\n').slice(-5).join('\n'),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The two side by side, one line per measure. */
export function printSideBySide(
  app: { calls: number; wallS: number; boundS: number; cpuS: number; rssMiB: number },
  ref: ReferenceFigures,
): void {
  const rows: [string, string, string][] = [
    ['calls', String(app.calls), `${ref.calls}${ref.errors ? ` (${ref.errors} not 200)` : ''}`],
    [
      'wall',
      `${app.wallS.toFixed(1)} s = ${(app.wallS / app.boundS).toFixed(2)}× its bound`,
      ref.boundS > 0
        ? `${ref.wallS.toFixed(1)} s = ${(ref.wallS / ref.boundS).toFixed(2)}× its bound`
        : `${ref.wallS.toFixed(1)} s`,
    ],
    [
      'CPU-s',
      app.cpuS.toFixed(1),
      `${ref.cpuS.toFixed(1)} (user ${ref.userS.toFixed(1)}, system ${ref.sysS.toFixed(1)})`,
    ],
    ['peak RSS', `${app.rssMiB.toFixed(0)} MiB`, `${ref.peakRssMiB.toFixed(0)} MiB (largest process)`],
  ];
  console.log(`    side by side with the reference (exit ${ref.code}): ${ref.command}`);
  const w = Math.max(...rows.map((r) => r[1].length));
  console.log(`      ${''.padEnd(9)}  ${'Judge Lab'.padEnd(w)}  reference`);
  for (const [name, a, b] of rows) console.log(`      ${name.padEnd(9)}  ${a.padEnd(w)}  ${b}`);
  if (ref.code !== 0 && ref.stderrTail)
    console.log(`      the reference's last words: ${ref.stderrTail.replace(/\n/g, ' | ')}`);
}
