// A Judge-LS study on the bundled LLMBar through the built CLI (`judge-lab run`), against the
// mock in its own process: the command's wall time split at the first request and the last
// answer, its own CPU-seconds and peak RSS (read inside it at exit through
// process.resourceUsage(), so worker threads count and the mock does not), and the busiest
// lane's bound. Needs `npm run build`.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliLauncher } from './launcher';
import { LLMBAR, spawnMock, type MockStats } from './mock-process';

export interface GcPauses {
  minorS: number;
  minorN: number;
  majorS: number;
  majorN: number;
}

export interface StudyShape {
  items: number;
  /** Judge models; the transform runs on TRANSFORM_MODEL. */
  judges: string[];
  /** Per model, at the mock and in the config. */
  rpm: number;
  latencyMs: [number, number];
  /**
   * 'position': bias-probes' position probe instead (pairwise, both orders, the judges only; no
   * transform): the 838-call study of issue 39 with one judge on the 419 items.
   */
  study?: 'judge-ls' | 'position';
}

/** The Judge-LS studies' translator. */
export const TRANSFORM_MODEL = 'gpt-4.1-mini';

/**
 * The benchmarks' study shapes (bench:overhead runs them through the CLI; bench:floor and
 * `--floor` send the same calls from a bare client): `study` is issue 39's 419 × 3 Judge-LS study
 * (10,894 calls), `position` its 838-call side-by-side study, `default` a 100-item study.
 */
export const STUDY_SHAPES = {
  default: { items: 100, judges: ['claude-haiku-4-5'], rpm: 1200, latencyMs: [250, 350] },
  study: {
    items: 419,
    judges: ['claude-haiku-4-5', 'gpt-4.1', 'claude-sonnet-4-5'],
    rpm: 3000,
    latencyMs: [20, 80],
  },
  position: { items: 419, judges: ['gpt-4.1'], rpm: 3000, latencyMs: [250, 350], study: 'position' },
} satisfies Record<string, StudyShape>;

export type StudyShapeName = keyof typeof STUDY_SHAPES;

export interface StudyFigures {
  code: number;
  wallS: number;
  startToFirstS: number;
  lastAnswerToExitS: number;
  /** The command's CPU-seconds from the last answer to its exit (threads included; ±50 ms). */
  cpuAfterLastAnswerS: number | null;
  trafficS: number;
  boundS: number;
  busiest: number;
  cpuS: number;
  userS: number;
  sysS: number;
  /** The main thread's GC pauses, seconds and counts. */
  gc: GcPauses;
  /** How the command was started (the launcher's variables and Node options). */
  launch: string;
  rssMiB: number;
  /** Peak RSS (MiB) sampled every 50 ms up to the last answer, and after it (the export); null if not sampled. */
  rssRunMiB: number | null;
  rssExportMiB: number | null;
  /** 1-minute load average at the start and at the end. */
  load: [number, number];
  stats: MockStats;
  stderr: string;
}

/** Models the mock and the configs send to the Anthropic kind. */
export const ANTHROPIC = /^claude/;

export async function runCliStudy(entry: string, shape: StudyShape): Promise<StudyFigures> {
  const position = shape.study === 'position';
  const mock = await spawnMock(entry, {
    ...(position ? { bias: true } : { judgeLs: true }),
    extraJudges: shape.judges,
    rpm: shape.rpm,
    burstSeconds: 3,
    latencyMs: shape.latencyMs,
  });
  // BENCH_KEEP_DIR: write the run's data and export there and keep them (e.g. for `judge-lab export`).
  const keep = process.env.BENCH_KEEP_DIR;
  const work = keep
    ? (mkdirSync(keep, { recursive: true }), keep)
    : mkdtempSync(join(tmpdir(), 'judge-lab-bench-study-'));
  const config = join(work, 'judge-ls.json');
  const usage = join(work, 'usage.json');
  const provider = (kind: 'openai' | 'anthropic') => ({
    kind,
    baseURL: kind === 'openai' ? `${mock.url}/v1` : mock.url,
    apiKeyEnv: 'MOCK_KEY',
    rpm: shape.rpm,
    concurrency: 32,
  });
  const judges = shape.judges.map((model) => ({
    label: `${model} (mock)`,
    provider: ANTHROPIC.test(model) ? 'anthropic' : 'openai',
    model,
  }));
  writeFileSync(
    config,
    JSON.stringify(
      position
        ? {
            name: 'bench-position',
            protocol: 'bias-probes',
            dataset: LLMBAR,
            limit: shape.items,
            providers: { openai: provider('openai'), anthropic: provider('anthropic') },
            judges,
            mode: 'pairwise',
            probes: ['position'],
          }
        : {
            name: 'bench-study',
            protocol: 'judge-ls',
            dataset: LLMBAR,
            limit: shape.items,
            providers: { openai: provider('openai'), anthropic: provider('anthropic') },
            transform: { provider: 'openai', model: TRANSFORM_MODEL, languages: ['ZH', 'LS'] },
            judges,
            tieProbes: true,
          },
    ),
  );
  // Runs in the command's process: its own CPU time and peak RSS when it exits, its CPU time
  // every 50 ms (worker threads included), to tell the CPU it spent after the last answer, and
  // its RSS at the same ticks (the largest per 1 s bucket), to tell the run's peak from the
  // export's. One timer: the probe's own CPU counts in the command's (~0.1 s at 20 ms RSS ticks).
  const probe = `data:text/javascript,${encodeURIComponent(
    `import{writeFileSync}from'node:fs';import{PerformanceObserver,constants as k}from'node:perf_hooks';const cpu=()=>{const u=process.resourceUsage();return(u.userCPUTime+u.systemCPUTime)/1e6};` +
      // The main thread's GC pauses (minor: scavenges; major: mark-compacts), from V8's own records.
      `const gc={minorS:0,minorN:0,majorS:0,majorN:0};new PerformanceObserver(l=>{for(const e of l.getEntries()){const m=e.detail?.kind===k.NODE_PERFORMANCE_GC_MINOR;gc[m?'minorS':'majorS']+=e.duration/1e3;gc[m?'minorN':'majorN']++}}).observe({entryTypes:['gc']});` +
      `const marks=[],rss=new Map();setInterval(()=>{const t=Date.now();marks.push([t,cpu()]);if(marks.length>400)marks.splice(0,200);` +
      `const s=Math.floor(t/1e3),r=process.memoryUsage.rss();if(r>(rss.get(s)??0))rss.set(s,r)},50).unref();` +
      `process.on('exit',()=>{const u=process.resourceUsage();` +
      `writeFileSync(${JSON.stringify(usage)},JSON.stringify({cpu:cpu(),userS:u.userCPUTime/1e6,sysS:u.systemCPUTime/1e6,rssMiB:u.maxRSS/1024,gc,marks,rss:[...rss]}))})`,
  )}`;
  const load0 = loadavg()[0];
  let stderr = '';
  const t0 = Date.now();
  // As the installed command starts (its first line's variables and Node options), unless
  // BENCH_CLI_PLAIN=1: `node bin/judge-lab.mjs` as it is, for a before/after of the launcher.
  const launcher =
    process.env.BENCH_CLI_PLAIN === '1' ? { env: {}, nodeArgs: [] } : cliLauncher(process.cwd());
  const code = await new Promise<number>((done) => {
    const child = spawn(
      process.execPath,
      [
        ...launcher.nodeArgs,
        // BENCH_CLI_NODE_ARGS: Node options for the CLI's process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof";
        // BENCH_STDOUT: a file for its standard output (e.g. with "--trace-opt --trace-deopt").
        ...(process.env.BENCH_CLI_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
        '--import',
        probe,
        join(process.cwd(), 'bin', 'judge-lab.mjs'),
        'run',
        config,
        '--out',
        join(work, 'export'),
        '--data-dir',
        join(work, 'data'),
      ],
      {
        stdio: [
          'ignore',
          process.env.BENCH_STDOUT ? openSync(process.env.BENCH_STDOUT, 'w') : 'ignore',
          'pipe',
        ],
        env: { ...process.env, ...launcher.env, MOCK_KEY: 'sk-mock' },
      },
    );
    child.stderr?.on('data', (chunk: Buffer) => {
      if (process.env.BENCH_VERBOSE) process.stderr.write(chunk);
      stderr += chunk.toString();
    });
    child.on('exit', (c) => done(c ?? 1));
  });
  const tEnd = Date.now();
  const stats = await mock.stats();
  mock.close();
  const own = JSON.parse(readFileSync(usage, 'utf8')) as {
    cpu: number;
    userS: number;
    sysS: number;
    rssMiB: number;
    gc: GcPauses;
    marks: [number, number][];
    rss: [number, number][];
  };
  // The last CPU reading before the last answer (the probe keeps the last 10–20 s of readings).
  const lastAnswerAt = stats.lastEndedAt ?? tEnd;
  const before = own.marks.filter(([at]) => at <= lastAnswerAt).at(-1);
  // A second's bucket that holds the last answer counts as the run's.
  const peak = (rows: [number, number][]) =>
    rows.length ? Math.max(...rows.map(([, r]) => r)) / 2 ** 20 : null;
  const lastSecond = Math.floor(lastAnswerAt / 1000);
  const rssRunMiB = peak(own.rss.filter(([s]) => s <= lastSecond));
  const rssExportMiB = peak(own.rss.filter(([s]) => s > lastSecond));
  if (!keep) rmSync(work, { recursive: true, force: true });
  const busiest = Math.max(...Object.values(stats.byModel));
  return {
    code,
    wallS: (tEnd - t0) / 1000,
    startToFirstS: ((stats.firstAt ?? t0) - t0) / 1000,
    lastAnswerToExitS: (tEnd - lastAnswerAt) / 1000,
    cpuAfterLastAnswerS: before ? own.cpu - before[1] : null,
    trafficS: ((stats.lastEndedAt ?? 0) - (stats.firstAt ?? 0)) / 1000,
    boundS: (busiest / shape.rpm) * 60,
    busiest,
    cpuS: own.cpu,
    userS: own.userS,
    gc: own.gc,
    launch: [
      ...Object.entries(launcher.env).map(([k, v]) => `${k}=${v}`),
      'node',
      ...launcher.nodeArgs,
      'bin/judge-lab.mjs run …',
    ].join(' '),
    sysS: own.sysS,
    rssMiB: own.rssMiB,
    rssRunMiB,
    rssExportMiB,
    load: [load0, loadavg()[0]],
    stats,
    stderr,
  };
}

/** The figures issue 27 asks for, one line each. */
export function printStudy(
  title: string,
  f: StudyFigures,
  targets: { wall: number; cpu: number; rss: number },
) {
  const mark = (ok: boolean) => (ok ? 'met' : 'MISSED');
  console.log(`${title} (exit ${f.code}; load ${f.load[0].toFixed(1)} → ${f.load[1].toFixed(1)})`);
  console.log(
    `    calls per model: ${Object.entries(f.stats.byModel)
      .map(([m, n]) => `${m} ${n}`)
      .join(', ')}; 429s ${f.stats.byStatus['429'] ?? 0} of ${f.stats.total}`,
  );
  console.log(`    started as: ${f.launch}`);
  console.log(`    busiest lane's bound: ${f.busiest} calls = ${f.boundS.toFixed(1)} s`);
  console.log(
    `    command wall ${f.wallS.toFixed(1)} s = ${(f.wallS / f.boundS).toFixed(3)}× the bound (target ≤ ${targets.wall}×: ${mark(f.wallS <= targets.wall * f.boundS)}); first request to last answer ${f.trafficS.toFixed(1)} s = ${(f.trafficS / f.boundS).toFixed(3)}×`,
  );
  console.log(
    `    main thread's GC pauses: ${(f.gc.minorS + f.gc.majorS).toFixed(2)} s (scavenges ${f.gc.minorS.toFixed(2)} s × ${f.gc.minorN}, mark-compacts ${f.gc.majorS.toFixed(2)} s × ${f.gc.majorN})`,
  );
  console.log(
    `    start → first request ${f.startToFirstS.toFixed(2)} s; last answer → exit ${f.lastAnswerToExitS.toFixed(2)} s (CPU ${f.cpuAfterLastAnswerS?.toFixed(2) ?? '?'} s)`,
  );
  console.log(
    `    command CPU ${f.cpuS.toFixed(1)} s (user ${f.userS.toFixed(1)}, system ${f.sysS.toFixed(1)}; target ≤ ${targets.cpu}: ${mark(f.cpuS <= targets.cpu)}); peak RSS ${f.rssMiB.toFixed(0)} MiB (target ≤ ${targets.rss}: ${mark(f.rssMiB <= targets.rss)}; sampled: up to the last answer ${f.rssRunMiB?.toFixed(0) ?? '?'}, after it ${f.rssExportMiB?.toFixed(0) ?? '?'}); the mock's CPU ${f.stats.cpuSeconds.toFixed(1)} s`,
  );
}
