// `judge-lab template recorded`, `run` on a recorded provider and `export-answers`, through the
// built command: the template is the file to fill, a filled copy runs offline to the end, a
// malformed one is refused with exit 2 naming file, line and field, and the run's answers come
// back out in the same format.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, ROOT, runCliInProcess } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

let dir: string;
let cleanup: () => void;

beforeAll(() => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup?.());

const config = (file: string) => ({
  name: 'recorded-cli',
  protocol: 'bias-probes',
  dataset: join(ROOT, 'resources/samples/llmbar.jsonl'),
  limit: 2,
  providers: { rec: { kind: 'recorded', file } },
  rewriter: { provider: 'rec', model: 'rewriter-model' },
  judges: [{ label: 'Judge', provider: 'rec', model: 'judge-model' }],
  mode: 'pairwise',
});

describe('judge-lab and recorded answers', () => {
  it('writes the template, runs a filled copy offline, refuses a malformed one, exports the answers', async () => {
    const data = ['--data-dir', join(dir, 'data')];
    const configFile = join(dir, 'config.json');
    // A relative file is taken relative to the config file, as the dataset is.
    writeFileSync(configFile, JSON.stringify(config('answers.jsonl')));
    const template = join(dir, 'answers.jsonl');
    const t = await runCliInProcess(['template', 'recorded', configFile, '--out', template, ...data]);
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toMatch(
      /Wrote 20 rows to .*answers\.jsonl \(columns: stage, item_id, slot, kind, judge, condition, order/,
    );
    const rows = readFileSync(template, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, string>);
    expect(rows).toHaveLength(20);

    // A duplicated row: refused, nothing stored, exit 2.
    writeFileSync(template, [...rows, rows[3]].map((r) => JSON.stringify(r)).join('\n'));
    const bad = await runCliInProcess(['run', configFile, '--out', join(dir, 'out'), ...data]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${template}:21: field "stage+item_id`);
    expect(bad.stderr).toContain('duplicate row: line 4 answers the same slot');
    const list = await runCliInProcess(['list', '--json', ...data]);
    expect(JSON.parse(list.stdout).experiments).toEqual([]);

    const filled = rows.map((r, i) => ({
      ...r,
      answer:
        r.stage === 'rewrite'
          ? `Rewritten response ${i}, with words enough to pass the audit.`
          : JSON.stringify({ winner: i % 3 ? 'A' : 'B', confidence: 0.8, reason: 'recorded' }),
    }));
    writeFileSync(template, filled.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const run = await runCliInProcess(['run', configFile, '--out', join(dir, 'out'), ...data]);
    expect(run.code, run.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(dir, 'out', 'manifest.json'), 'utf8'));
    expect(manifest.recorded[0]).toMatchObject({ file: template, rows: 20, missing: { count: 0 } });
    expect(manifest.config.providers.rec.sha256).toBe(manifest.recorded[0].sha256);

    const back = join(dir, 'back.csv');
    const e = await runCliInProcess(['export-answers', 'recorded-cli', '--out', back, ...data]);
    expect(e.code, e.stderr).toBe(0);
    const csv = readFileSync(back, 'utf8').split('\r\n');
    // The shared CSV writer's BOM (issue 40 item 8), so spreadsheets read it as UTF-8.
    expect(csv[0]).toBe(
      '\uFEFFstage,item_id,slot,kind,judge,condition,order,model,answer,input_tokens,output_tokens,cached_tokens',
    );
    // Every answer the run asked for comes back (the plan may ask fewer than the template lists).
    expect(csv.filter((l) => l !== '').length - 1).toBeGreaterThanOrEqual(12);
  }, 300_000);
});
