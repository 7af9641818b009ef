// The full Judge-LS protocol on the bundled 419-item LLMBar through the real CLI
// (`judge-lab run`), against the loopback mock provider: runtime, calls per kind, and a
// summary of the exported metrics. `npm run bench:llmbar [-- OUT_DIR]`; needs `npm run build`.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseDatasetFile } from '../src/main/import';
import type { Item } from '../src/shared/domain';
import type { JudgeLsMetrics } from '../src/shared/protocols/judge-ls/types';
import { judgeLsResponder } from '../test/mock-provider/judge-ls-responder';
import { startMockProvider } from '../test/mock-provider/server';

const root = process.cwd();
const sample = join(root, 'resources', 'samples', 'llmbar.jsonl');
const work = mkdtempSync(join(tmpdir(), 'judge-lab-llmbar-'));
const out = resolve(process.argv[2] ?? join(work, 'export'));

const items: Item[] = parseDatasetFile('llmbar.jsonl', readFileSync(sample)).items.map((it, i) => ({
  ...it,
  id: i + 1,
  datasetId: 1,
  position: i + 1,
}));
const responder = judgeLsResponder(items, { failRate: 0.005 });
const mock = await startMockProvider({
  respond: responder.respond,
  faultFor: responder.faultFor,
  latencyMs: [20, 80],
  wrapText: false,
  logBodies: true,
});

const config = join(work, 'judge-ls-llmbar.json');
writeFileSync(
  config,
  JSON.stringify(
    {
      name: 'judge-ls-llmbar-mock',
      protocol: 'judge-ls',
      dataset: sample,
      providers: {
        openai: {
          kind: 'openai',
          baseURL: `${mock.url}/v1`,
          apiKeyEnv: 'MOCK_OPENAI_KEY',
          rpm: 6000,
          concurrency: 32,
        },
        anthropic: {
          kind: 'anthropic',
          baseURL: mock.url,
          apiKeyEnv: 'MOCK_ANTHROPIC_KEY',
          rpm: 6000,
          concurrency: 32,
        },
      },
      transform: { provider: 'openai', model: 'gpt-4.1-mini', languages: ['ZH', 'LS'] },
      judges: [
        { label: 'GPT-4.1 mini (mock)', provider: 'openai', model: 'gpt-4.1-mini', temperature: 0 },
        { label: 'Claude Haiku 4.5 (mock)', provider: 'anthropic', model: 'claude-haiku-4-5' },
      ],
      tieProbes: true,
    },
    null,
    2,
  ),
);

// The command's own CPU-seconds and peak RSS (issue 39: the stable figures on a shared machine),
// written by it at exit: the mock runs in this process and does not count.
const usage = join(work, 'usage.json');
const probe = `data:text/javascript,${encodeURIComponent(
  `import{writeFileSync}from'node:fs';process.on('exit',()=>{const u=process.resourceUsage();` +
    `writeFileSync(${JSON.stringify(usage)},JSON.stringify({cpu:(u.userCPUTime+u.systemCPUTime)/1e6,rssMiB:u.maxRSS/1024}))})`,
)}`;
const t0 = Date.now();
const code = await new Promise<number>((done) => {
  const child = spawn(
    process.execPath,
    [
      '--import',
      probe,
      join(root, 'bin', 'judge-lab.mjs'),
      'run',
      config,
      '--out',
      out,
      '--data-dir',
      join(work, 'data'),
    ],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, MOCK_OPENAI_KEY: 'sk-mock', MOCK_ANTHROPIC_KEY: 'sk-ant-mock' },
    },
  );
  child.on('exit', (c) => done(c ?? 1));
});
const seconds = (Date.now() - t0) / 1000;
await mock.close();

const kinds: Record<string, number> = {};
for (const b of mock.bodies) {
  const kind =
    b.schemaName === 'language_variant'
      ? 'transform'
      : /translation-equivalent/.test(b.lastUser)
        ? 'tie_probe'
        : 'quality';
  const key = `${b.model} ${kind}`;
  kinds[key] = (kinds[key] ?? 0) + 1;
}
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const own = JSON.parse(readFileSync(usage, 'utf8')) as { cpu: number; rssMiB: number };
console.log(
  `\nexit ${code}; wall time ${seconds.toFixed(1)} s, command CPU ${own.cpu.toFixed(1)} s, peak RSS ${own.rssMiB.toFixed(0)} MiB (mock latency 20–80 ms, 32 concurrent per model)`,
);
console.log('HTTP calls per model and kind (includes re-asks of unparseable answers):');
for (const [k, n] of Object.entries(kinds).sort()) console.log(`  ${k.padEnd(32)} ${n}`);
console.log(`answers that stayed unparseable (recorded failed): ${responder.stickyFailures.size}`);
const m = JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8')) as JudgeLsMetrics;
console.log('\nquality (accuracy strict [95% CI], tie-half):');
for (const q of m.quality) {
  console.log(
    `  ${q.judge.padEnd(26)} ${q.language}  n=${q.n}  ${pct(q.accuracy_strict)} [${pct(q.accuracy_strict_ci![0])}, ${pct(q.accuracy_strict_ci![1])}]  tie-half ${pct(q.accuracy_tie_half)}`,
  );
}
console.log('language invariance (flip rate, correctness flip, McNemar p):');
for (const r of m.language_invariance) {
  console.log(
    `  ${r.judge.padEnd(26)} ${r.comparison}  n=${r.n}  flip ${pct(r.flip_rate)}  corr-flip ${pct(r.correctness_flip_rate)}  p=${r.mcnemar_p.toPrecision(3)}`,
  );
}
console.log(
  `audit: ${m.audit.flagged.length} items flagged; sensitivity excludes ${m.sensitivity.excluded_item_ids.length}`,
);
console.log(`failures: ${m.failures.map((f) => `${f.judge}/${f.kind} ${f.count}`).join(', ') || 'none'}`);
console.log(`\nexport: ${out}`);
for (const d of ['tables', 'figures']) console.log(`  ${d}/: ${readdirSync(join(out, d)).join(' ')}`);
