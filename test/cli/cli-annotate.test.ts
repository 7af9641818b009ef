// The human-rating doors of the CLI through the real binary: a rating set drawn from a keyless
// bias-probes run, its blinded package, labels imported all or nothing, the agreement report
// (the dashboard's tables as text, or JSON) and a calibration mapping applied to a second run.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AnnotationSetSummary,
  Disagreement,
  GuidelinesVersion,
} from '../../src/shared/annotation/api-types';
import type { AgreementReport } from '../../src/shared/annotation/agreement';
import type { CalibratedRow } from '../../src/shared/annotation/calibrate';
import type { LeastSureSelection } from '../../src/shared/annotation/least-sure';
import { spawn } from 'node:child_process';
import { assertBuilt, BIN, ROOT, runCliInProcess } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

const SAMPLE = join(ROOT, 'resources', 'samples', 'llmbar.jsonl');
let dir: string;
let data: string;
let cleanup: () => void;
const cli = (...args: string[]) => runCliInProcess([...args, '--data-dir', data]);

async function runStudy(name: string): Promise<void> {
  const cfg = join(dir, `${name}.json`);
  writeFileSync(
    cfg,
    JSON.stringify({
      name,
      protocol: 'bias-probes',
      dataset: SAMPLE,
      limit: 20,
      providers: { sim: { kind: 'simulated', latencyMs: 0, rpm: 60000, concurrency: 16 } },
      rewriter: { provider: 'sim', model: 'sim-rewriter' },
      judges: [{ label: 'Secret judge', provider: 'sim', model: 'sim-judge' }],
      mode: 'pointwise',
      prices: { 'sim-rewriter': { input: 0, output: 0 }, 'sim-judge': { input: 0, output: 0 } },
    }),
  );
  const r = await cli('run', cfg, '--out', join(dir, `${name}-out`));
  expect(r.code, r.stderr).toBe(0);
}

beforeAll(async () => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
  data = join(dir, 'data');
  await runStudy('rated');
  // A whole run through the built CLI: more than the default 10 s on a loaded machine.
}, 180_000);
afterAll(() => cleanup());

describe('judge-lab annotate', () => {
  it('draws a set, writes its package blinded, imports labels all or nothing, and reports agreement', async () => {
    expect((await cli('annotate', 'sets')).stdout).toMatch(/No rating sets yet/);
    const created = await cli(
      'annotate',
      'create-set',
      'rated',
      '--size',
      '30',
      '--seed',
      '2',
      '--name',
      'pilot',
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/Created rating set 1 "pilot" with 30 units/);

    const pkg = join(dir, 'pilot.json');
    const exported = await cli('annotate', 'export-package', 'pilot', '--out', pkg);
    expect(exported.code, exported.stderr).toBe(0);
    const text = readFileSync(pkg, 'utf8');
    expect((JSON.parse(text) as { items: unknown[] }).items).toHaveLength(30);
    expect(text).not.toContain('Secret judge');

    // Item ids as a spreadsheet of labels names them (the package is blinded: units only).
    const db = new BetterSqlite3(join(data, 'judge-lab.sqlite'), { readonly: true });
    const keys = (
      db.prepare('SELECT item_key FROM annotation_items WHERE set_id = 1 ORDER BY position').all() as {
        item_key: string;
      }[]
    ).map((r) => r.item_key);
    db.close();
    expect(keys).toHaveLength(30);

    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, ['item_id,annotator,score', `"${keys[0]}",ana,3`, `"${keys[1]}",ana,9`].join('\n'));
    const refused = await cli('annotate', 'import-labels', '1', bad);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/bad\.csv:3: field "score": "9" is out of the scale/);
    expect(refused.stderr).toMatch(/nothing was imported/);
    const untouched = JSON.parse(
      (await cli('annotate', 'sets', 'rated', '--json')).stdout,
    ) as AnnotationSetSummary[];
    expect(untouched[0].progress.reduce((a, p) => a + p.labelled, 0)).toBe(0);

    const labels = join(dir, 'labels.csv');
    writeFileSync(
      labels,
      [
        'item_id,annotator,score',
        ...keys.flatMap((k, i) => [
          `"${k}",ana,${1 + (i % 5)}`,
          `"${k}",ben,${1 + ((i + (i % 3 === 0 ? 1 : 0)) % 5)}`,
        ]),
      ].join('\n'),
    );
    const imported = await cli('annotate', 'import-labels', 'pilot', labels);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/Imported 60 labels into "pilot" from ana, ben/);

    const report = await cli('annotate', 'agreement', 'pilot', '--threshold', '0.5');
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toMatch(/threshold 0\.5/);
    expect(report.stdout).toContain('Secret judge');
    const json = JSON.parse((await cli('annotate', 'agreement', '1', '--json')).stdout) as AgreementReport;
    expect(json.threshold).toBe(0.8);
    expect(json.judge_human.map((r) => r.judge)).toContain('Secret judge');
    expect(json.calibration_mapping.some((m) => m.judge === 'Secret judge')).toBe(true);
    // The text shows the numbers the JSON holds, formatted as on the dashboard.
    const rho = json.judge_human.find((r) => r.variant === 'raw')!.spearman_rho!;
    expect(report.stdout).toContain(rho.toFixed(3));
    // The alternative annotator test's ε is the caller's (issue 36); two annotators are too few for
    // the test, and the report says so beside the corrected estimates.
    const eps = JSON.parse(
      (await cli('annotate', 'agreement', '1', '--json', '--epsilon', '0.1')).stdout,
    ) as AgreementReport;
    expect(eps.judge_and_people.judges[0].alt_test).toMatchObject({
      epsilon: 0.1,
      undefined_reason: 'fewer than 3 annotators',
    });
    expect(json.judge_and_people.judges[0].alt_test.epsilon).toBe(0.2);
    expect(report.stdout).toContain('Corrected estimates: share scoring');
    // The label budget, before anyone rates: the same count as the set creator shows.
    const budget = await cli('annotate', 'budget', '--width', '0.1', '--rho', '0.6', '--unlabelled', '1000');
    expect(budget.code, budget.stderr).toBe(0);
    expect(budget.stdout).toContain('about 276 human labels (people alone: 385)');
    // Which items: bands of ⌈1276/3⌉ = 426; after 10 each, 246 split 0.3 : 0.458 : 0.3 (the SDs of
    // disagreements 0.1, 0.3, 0.1) → 69.7, 106.5, 69.7 → 70, 106, 70.
    expect(budget.stdout).toContain(
      "Which items: 80 from the judge's low score band, 116 from the middle, 80 from the high",
    );
    expect(budget.stdout).toContain('create-set --size 276 --band-counts 80,116,80');
    const budgetJson = JSON.parse(
      (await cli('annotate', 'budget', '--width', '0.1', '--rho', '0.8', '--unlabelled', '10000', '--json'))
        .stdout,
    ) as { ppi_plus_plus: number; human_only: number };
    expect(budgetJson).toMatchObject({ ppi_plus_plus: 142, human_only: 385 });
    const even = JSON.parse(
      (
        await cli(
          'annotate',
          'budget',
          '--width',
          '0.1',
          '--rho',
          '0.8',
          '--unlabelled',
          '10000',
          '--disagreement',
          '0.2,0.2,0.2',
          '--floor',
          '5',
          '--json',
        )
      ).stdout,
    ) as { allocation: { band: string; count: number }[] };
    // From a pilot: the rated set's disagreement per judge band ((k + 1)/(n + 2)) replaces the assumption.
    const bands = json.judge_and_people.judges[0].band_disagreement;
    expect(bands.map((b) => b.band)).toEqual(['low', 'mid', 'high']);
    expect(bands.reduce((a, b) => a + b.labelled, 0)).toBe(json.judge_and_people.judges[0].n_labelled);
    const fromPilot = await cli(
      'annotate',
      'budget',
      '--width',
      '0.1',
      '--rho',
      '0.6',
      '--unlabelled',
      '1000',
      '--pilot',
      'pilot',
      '--json',
    );
    expect(fromPilot.code, fromPilot.stderr).toBe(0);
    const pilotPlan = JSON.parse(fromPilot.stdout) as {
      disagreement: number[];
      allocation: { count: number }[];
    };
    expect(pilotPlan.disagreement).toEqual(bands.map((b, i) => b.disagreement ?? [0.1, 0.3, 0.1][i]));
    expect(pilotPlan.allocation.reduce((a, b) => a + b.count, 0)).toBe(276);
    // Equal disagreement, equal bands: an even split (142 = 48 + 47 + 47).
    expect(even.allocation.map((a) => a.count)).toEqual([48, 47, 47]);
    const badEps = await cli('annotate', 'agreement', '1', '--epsilon', '1.5');
    expect(badEps.code).not.toBe(0);
    expect(badEps.stderr).toContain('expected a number from 0 to 1');

    const zip = join(dir, 'agreement.zip');
    expect((await cli('annotate', 'agreement', 'pilot', '--out', zip)).code).toBe(0);
    expect(readFileSync(zip).subarray(0, 2).toString()).toBe('PK');
    // --lang zh: the zip's figures in Chinese (tables stay English, as in every export).
    const zipZh = join(dir, 'agreement-zh.zip');
    expect((await cli('annotate', 'agreement', 'pilot', '--out', zipZh, '--lang', 'zh')).code).toBe(0);
    const files = unzipSync(new Uint8Array(readFileSync(zipZh)));
    const svg = Buffer.from(Object.entries(files).find(([n]) => n.endsWith('judge_vs_human.svg'))![1]);
    expect(svg.toString('utf8')).toContain('评审模型与人工对比');
    const badLang = await cli('annotate', 'agreement', 'pilot', '--out', zipZh, '--lang', 'fr');
    expect(badLang.code).not.toBe(0);
    expect(badLang.stderr).toMatch(/--lang/);

    // Piped into a reader that stops early (`| head`): the zip is still written, no EPIPE crash
    // (issue 26 item 8).
    const piped = join(dir, 'agreement-piped.zip');
    const child = spawn(
      process.execPath,
      [BIN, 'annotate', 'agreement', 'pilot', '--out', piped, '--data-dir', data],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout.destroy(); // the reader is gone before the first line
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(stderr).not.toMatch(/EPIPE/);
    expect(code, stderr).toBe(0);
    expect(readFileSync(piped).subarray(0, 2).toString()).toBe('PK');
  });

  it('lists the units the judge is least sure about, with why, and sends them to people in one step (issue 36)', async () => {
    // Each response's score as written, read from the store's rows (condition original, shown alone).
    const db = new BetterSqlite3(join(data, 'judge-lab.sqlite'), { readonly: true });
    const scores = new Map(
      (
        db
          .prepare(
            `SELECT t.meta_json AS meta, r.value_json AS value FROM experiment_tasks t
             JOIN task_results r ON r.experiment_id = t.experiment_id AND r.task_key = t.task_key
             JOIN experiments e ON e.id = t.experiment_id
             WHERE e.name = 'rated' AND t.stage = 'judge' AND r.status = 'ok'`,
          )
          .all() as { meta: string; value: string }[]
      )
        .map((r) => ({ m: JSON.parse(r.meta), v: JSON.parse(r.value) }))
        .filter(({ m }) => m.condition === 'original' && !m.shown)
        .map(({ m, v }) => [`${m.sourceId}#${m.slot}`, v.score as number]),
    );
    db.close();
    expect(scores.size).toBe(40);
    // 1–5: the corrected estimates count ≥ 4, so 3 and 4 are one point from the other side.
    const near = [...scores].filter(([, s]) => s === 3 || s === 4).map(([k]) => k);
    expect(near.length).toBeGreaterThan(5);
    const json = await cli('annotate', 'least-sure', 'rated', '--json');
    expect(json.code, json.stderr).toBe(0);
    const sel = JSON.parse(json.stdout) as LeastSureSelection;
    expect(sel.items.map((i) => i.itemKey).sort()).toEqual(near.sort());
    expect(sel.unavailable.map((u) => u.criterion)).toEqual(['position', 'repeat']);

    const text = await cli('annotate', 'least-sure', 'rated', '--size', '5');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`${near.length} of 40 units the judge is least sure about`);
    expect(text.stdout).toContain('Boundary: within 1 point of ≥ 4');
    expect(text.stdout).toContain('Not looked for: repeat (no repeated answers (the noise floor is off))');
    expect(text.stdout).toContain('A set of 5 takes the first 5');
    const first = sel.items[0];
    expect(text.stdout).toContain(
      `  ${first.itemKey}  Secret judge: score ${scores.get(first.itemKey)} is 1 point from the other side of ≥ 4`,
    );

    const created = await cli(
      'annotate',
      'create-set',
      'rated',
      '--size',
      '5',
      '--least-sure',
      '--name',
      'hard',
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/Created rating set \d+ "hard" with 5 units/);
    expect(created.stdout).toContain("Chosen as the judge's least sure: boundary 5. Not a random sample");
    // The budget's allocation used when the set is drawn: each judge band takes its own count.
    const banded = await cli(
      'annotate',
      'create-set',
      'rated',
      '--size',
      '6',
      '--band-counts',
      '1,4,1',
      '--name',
      'banded',
    );
    expect(banded.code, banded.stderr).toBe(0);
    const mismatch = await cli('annotate', 'create-set', 'rated', '--size', '5', '--band-counts', '1,4,1');
    expect(mismatch.stderr).toContain('The band counts must add up to the set size');
    const sets = JSON.parse(
      (await cli('annotate', 'sets', 'rated', '--json')).stdout,
    ) as AnnotationSetSummary[];
    const bandTotals = (name: string) => {
      const set = sets.find((x) => x.name === name)!;
      return ['low', 'mid', 'high'].map((b) =>
        set.strata
          .filter((st) => st.stratum.startsWith(`judge-${b} × `))
          .reduce((a, st) => a + st.sampled, 0),
      );
    };
    expect(bandTotals('banded')).toEqual([1, 4, 1]);
    const hard = sets.find((x) => x.name === 'hard')!;
    expect(hard.selection).toBe('least-sure');
    expect(hard.strata).toEqual([
      { stratum: 'least sure: position', criterion: 'position', available: 0, sampled: 0 },
      { stratum: 'least sure: repeat', criterion: 'repeat', available: 0, sampled: 0 },
      { stratum: 'least sure: boundary', criterion: 'boundary', available: near.length, sampled: 5 },
    ]);

    const noFlag = await cli('annotate', 'create-set', 'rated', '--size', '5', '--margin', '2');
    expect(noFlag.code).not.toBe(0);
    expect(noFlag.stderr).toContain('add --least-sure');
    const bad = await cli('annotate', 'least-sure', 'rated', '--criteria', 'boundary,hunch');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('expected some of position, repeat, boundary');
    const none = await cli(
      'annotate',
      'create-set',
      'rated',
      '--size',
      '5',
      '--least-sure',
      '--criteria',
      'repeat',
    );
    expect(none.code).not.toBe(0);
    expect(none.stderr).toContain('not unsure about any unit by repeat');
  });

  it("applies a set's mapping to another run of the same judge, and names a set it cannot find", async () => {
    await runStudy('second');
    const out = join(dir, 'calibrated.csv');
    // The labels above are a pattern of their own (1–5 in turn), so the mapping does not hold on
    // held-out items: refused, nothing written, until --force (issue 20 item 9).
    const refused = await cli(
      'annotate',
      'apply-mapping',
      'pilot',
      'second',
      '--judge',
      'Secret judge',
      '--out',
      out,
    );
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/held-out ρ of -?\d\.\d\d, below the floor of 0\.3.*--force/);
    expect(existsSync(out)).toBe(false);
    const r = await cli(
      'annotate',
      'apply-mapping',
      'pilot',
      'second',
      '--judge',
      'Secret judge',
      '--out',
      out,
      '--json',
      '--force',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /Warning: applied with --force: the mapping's held-out ρ is .*, below the floor of 0\.3; \d+ of \d+ scores/,
    );
    const applied = JSON.parse(r.stdout) as { rows: CalibratedRow[]; mappingId: number; forced: boolean };
    expect(applied.forced).toBe(true);
    expect(applied.rows.length).toBeGreaterThan(0);
    expect(applied.rows.every((row) => row.judge === 'Secret judge')).toBe(true);
    expect(existsSync(out)).toBe(true);
    const csv = readFileSync(out, 'utf8')
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/);
    expect(csv[0]).toBe('item_id,judge,category,raw,calibrated,linear,mapping');
    expect(csv.filter((l) => l !== '').length).toBe(applied.rows.length + 1);

    const text = await cli('annotate', 'apply-mapping', '1', 'second', '--judge', 'Secret judge', '--force');
    expect(text.stdout).toMatch(new RegExp(`Calibrated ${applied.rows.length} scores of "Secret judge"`));

    const missing = await cli('annotate', 'agreement', 'nope');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/No rating set "nope" \(there are: 1 "pilot", 2 "hard", 3 "banded"\)/);
    const noJudge = await cli('annotate', 'apply-mapping', 'pilot', 'second', '--judge', 'Other');
    expect(noJudge.code).toBe(2);
    expect(noJudge.stderr).toMatch(/No calibration mapping for judge "Other"/);
  });

  it('writes a label template a person fills and imports back, without reading the database', async () => {
    const created = await cli(
      'annotate',
      'create-set',
      'rated',
      '--size',
      '6',
      '--seed',
      '5',
      '--name',
      'by hand',
    );
    expect(created.code, created.stderr).toBe(0);
    const out = join(dir, 'template.csv');
    const r = await cli('annotate', 'label-template', 'by hand', '--annotator', 'Chen', '--out', out);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Wrote the label template of "by hand" \(6 units\)/);
    expect(r.stdout).toMatch(/Fill the score column with an integer from 1 to 5/);

    const text = readFileSync(out, 'utf8');
    expect(text).not.toContain('Secret judge');
    const rows = parse(text.replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(6);
    expect(Object.keys(rows[0]).slice(0, 5)).toEqual(['item_id', 'annotator', 'score', 'comment', 'prompt']);
    expect(rows.every((row) => row.annotator === 'Chen' && row.score === '' && row.prompt !== '')).toBe(true);

    // Imported untouched, it is refused at its first row, naming the empty column.
    const empty = await cli('annotate', 'import-labels', 'by hand', out);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/template\.csv:2: field "score": give one of score, preference or label/);

    // Filled as a spreadsheet would save it (every column kept), it imports whole.
    const filled = join(dir, 'filled.csv');
    const header = Object.keys(rows[0]);
    const quote = (v: string) => `"${v.replace(/"/g, '""')}"`;
    writeFileSync(
      filled,
      [
        header.join(','),
        ...rows.map((row, i) =>
          header.map((h) => quote(h === 'score' ? String(1 + (i % 5)) : row[h])).join(','),
        ),
      ].join('\r\n'),
    );
    const imported = await cli('annotate', 'import-labels', 'by hand', filled);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/Imported 6 labels into "by hand" from Chen/);
    const sets = JSON.parse(
      (await cli('annotate', 'sets', 'rated', '--json')).stdout,
    ) as AnnotationSetSummary[];
    const progress = sets.find((s) => s.name === 'by hand')!.progress;
    expect(progress).toEqual([expect.objectContaining({ annotator: 'Chen', labelled: 6, total: 6 })]);

    // Without --annotator the column is left for the person; a folder takes the file's own name.
    const anon = await cli('annotate', 'label-template', 'by hand', '--out', dir);
    expect(anon.code, anon.stderr).toBe(0);
    expect(anon.stdout).toMatch(/and the annotator column with a name/);
    const named = readFileSync(join(dir, 'by-hand.labels.csv'), 'utf8');
    expect(named.split('\r\n')[1]).toMatch(/^[0-9a-f]{16},,,,/);
  });

  it('refuses a package of a set this store does not know, naming both sets and the flags (issue 22 item 10)', async () => {
    const doc = JSON.parse(readFileSync(join(dir, 'pilot.json'), 'utf8'));
    doc.set.uid = 'made-elsewhere';
    doc.set.name = 'their pilot';
    const file = join(dir, 'theirs.annotation.json');
    writeFileSync(file, JSON.stringify(doc));
    const before = (await cli('annotate', 'sets', '--json')).stdout;
    const asked = await cli('annotate', 'import-package', file);
    expect(asked.code).toBe(2);
    expect(asked.stderr).toMatch(
      /theirs\.annotation\.json holds rating set "their pilot" \(uid made-elsewhere/,
    );
    expect(asked.stderr).toMatch(/Its units match set 1 "pilot": to merge its labels there, add --into 1/);
    expect(asked.stderr).toMatch(/--as-new-set/);
    expect((await cli('annotate', 'sets', '--json')).stdout).toBe(before);
    const merged = await cli('annotate', 'import-package', file, '--into', 'pilot');
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toMatch(/Merged into rating set 1 "pilot"/);
    const opened = await cli('annotate', 'import-package', file, '--as-new-set');
    expect(opened.code, opened.stderr).toBe(0);
    expect(opened.stdout).toMatch(/Opened as a new rating set \d+ "their pilot"/);
  });

  it('lists package labels older than the set’s as conflicts and keeps the set’s, unless --take-package-labels (issue 40 item 3)', async () => {
    const pkg = join(dir, 'pilot-now.json');
    expect((await cli('annotate', 'export-package', 'pilot', '--out', pkg)).code).toBe(0);
    const doc = JSON.parse(readFileSync(pkg, 'utf8'));
    const ana = (doc.labels as { annotator: string; value: number; time?: string }[]).filter(
      (l) => l.annotator === 'ana',
    );
    expect(ana).toHaveLength(30);
    for (const l of ana) Object.assign(l, { value: (l.value % 5) + 1, time: '2000-01-01T00:00:00.000Z' });
    const old = join(dir, 'old.annotation.json');
    writeFileSync(old, JSON.stringify(doc));
    const before = (await cli('annotate', 'sets', '--json')).stdout;
    const kept = await cli('annotate', 'import-package', old);
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stdout).toMatch(/Merged into rating set 1 "pilot": 0 labels/);
    expect(kept.stdout).toMatch(/30 labels of old\.annotation\.json not taken: this set's label is newer/);
    expect(kept.stdout).toMatch(
      /unit [0-9a-f]{16}, ana: kept \d \(.+\); the package has \d \(2000-01-01T00:00:00\.000Z\)/,
    );
    expect(kept.stdout).toMatch(/--take-package-labels/);
    expect((await cli('annotate', 'sets', '--json')).stdout).toBe(before);
    const taken = await cli('annotate', 'import-package', old, '--take-package-labels');
    expect(taken.code, taken.stderr).toBe(0);
    expect(taken.stdout).toMatch(/Merged into rating set 1 "pilot": 30 labels\n$/);
  });

  it('writes guidelines from a file (each change a version), lists disagreements and adjudicates them (issue 26 item 5)', async () => {
    const empty = join(dir, 'empty.md');
    writeFileSync(empty, '  \n');
    const refused = await cli(
      'annotate',
      'create-set',
      'rated',
      '--size',
      '4',
      '--name',
      'guided',
      '--guidelines',
      empty,
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/empty\.md: the guidelines file is empty/);
    expect((await cli('annotate', 'sets', '--json')).stdout).not.toContain('"guided"');
    const notText = join(dir, 'latin1.md');
    writeFileSync(notText, Buffer.from([0x52, 0xe9, 0x73, 0x75, 0x6d, 0xe9]));
    const unreadable = await cli('annotate', 'guidelines', 'pilot', '--file', notText);
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toMatch(/latin1\.md: cannot read the guidelines/);

    const v1 = join(dir, 'guidelines.md');
    writeFileSync(v1, '\uFEFF# Scoring\n\nScore 5 only when every instruction is followed. 评分标准。\n');
    const created = await cli(
      'annotate',
      'create-set',
      'rated',
      '--size',
      '4',
      '--name',
      'guided',
      '--guidelines',
      v1,
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/Created rating set \d+ "guided" with 4 units and guidelines version 1/);
    const shown = await cli('annotate', 'guidelines', 'guided');
    expect(shown.stdout).toMatch(/Guidelines of "guided", version 1 of 1/);
    expect(shown.stdout).toContain('Score 5 only when every instruction is followed. 评分标准。');
    expect(shown.stdout).not.toContain('\uFEFF');

    const same = await cli('annotate', 'guidelines', 'guided', '--file', v1);
    expect(same.stdout).toMatch(/unchanged: still version 1/);
    const v2 = join(dir, 'guidelines-2.md');
    writeFileSync(v2, '# Scoring\n\nA tie is 3.\n');
    expect((await cli('annotate', 'guidelines', 'guided', '--file', v2)).stdout).toMatch(
      /Stored the guidelines of "guided" as version 2/,
    );
    const versions = JSON.parse(
      (await cli('annotate', 'guidelines', 'guided', '--json')).stdout,
    ) as GuidelinesVersion[];
    expect(versions.map((v) => v.version)).toEqual([1, 2]);
    expect(versions[1].text).toBe('# Scoring\n\nA tie is 3.'); // stored without trailing space
    expect((await cli('annotate', 'guidelines', 'by hand')).stdout).toMatch(
      /"by hand" has no guidelines yet\. Write them with: judge-lab annotate guidelines \d+ --file <file>/,
    );

    // The pilot's labels (ana and ben differ on every third item) are its disagreements.
    const listed = JSON.parse(
      (await cli('annotate', 'disagreements', 'pilot', '--json')).stdout,
    ) as Disagreement[];
    expect(listed.length).toBeGreaterThan(0);
    expect(
      listed.every((d) => d.adjudication === null && new Set(d.labels.map((l) => l.value)).size > 1),
    ).toBe(true);
    const first = listed[0];
    const text = await cli('annotate', 'disagreements', 'pilot');
    expect(text.stdout).toContain(first.unitUid);
    expect(text.stdout).toMatch(/ana=\d {2}ben=\d/);

    const offScale = await cli('annotate', 'adjudicate', 'pilot', first.unitUid, '9', '--by', 'Dana');
    expect(offScale.code).toBe(2);
    expect(offScale.stderr).toMatch(/"9" is not on this set's scale \(an integer 1–5\)/);
    const noUnit = await cli('annotate', 'adjudicate', 'pilot', 'no-such-unit', '3', '--by', 'Dana');
    expect(noUnit.code).toBe(2);
    expect(noUnit.stderr).toMatch(/No unit "no-such-unit"/);

    const before = JSON.parse(
      (await cli('annotate', 'agreement', 'pilot', '--json')).stdout,
    ) as AgreementReport;
    const settled = await cli(
      'annotate',
      'adjudicate',
      'pilot',
      first.unitUid,
      '5',
      '--by',
      'Dana',
      '--note',
      'rule 2',
    );
    expect(settled.code, settled.stderr).toBe(0);
    expect(settled.stdout).toBe(`Adjudicated ${first.unitUid} in "pilot" as 5\n`);
    const after = JSON.parse(
      (await cli('annotate', 'disagreements', 'pilot', '--json')).stdout,
    ) as Disagreement[];
    expect(after.find((d) => d.unitUid === first.unitUid)!.adjudication).toEqual(
      expect.objectContaining({ value: 5, adjudicator: 'Dana', note: 'rule 2' }),
    );
    expect((await cli('annotate', 'disagreements', 'pilot')).stdout).toMatch(/adjudicated: 5 by Dana at /);
    const report = JSON.parse(
      (await cli('annotate', 'agreement', 'pilot', '--json')).stdout,
    ) as AgreementReport;
    expect(before.adjudicated_items).toBe(0);
    expect(report.adjudicated_items).toBe(1);

    const withdrawn = await cli('annotate', 'adjudicate', 'pilot', first.unitUid, 'none', '--by', 'Dana');
    expect(withdrawn.stdout).toMatch(/Withdrew the adjudication of/);
    const back = JSON.parse(
      (await cli('annotate', 'agreement', 'pilot', '--json')).stdout,
    ) as AgreementReport;
    expect(back.adjudicated_items).toBe(0);
    expect(back.judge_human).toEqual(before.judge_human);
  });

  it('rates translation equivalence of a Judge-LS run with verified translations (issue 37): --task, a label template, the checks against people', async () => {
    const cfg = join(dir, 'verified.json');
    writeFileSync(
      cfg,
      JSON.stringify({
        name: 'verified',
        protocol: 'judge-ls',
        dataset: SAMPLE,
        limit: 8,
        providers: { sim: { kind: 'simulated', latencyMs: 0, rpm: 60000, concurrency: 16 } },
        transform: {
          provider: 'sim',
          model: 'sim-translator-unfaithful30',
          languages: ['ar', 'hi'],
          verify: { provider: 'sim', model: 'sim-back-translator', llmVerdict: true },
        },
        judges: [{ label: 'Sim', provider: 'sim', model: 'sim-judge-strong' }],
        tieProbes: false,
      }),
    );
    const ran = await cli('run', cfg, '--out', join(dir, 'verified-out'));
    expect(ran.code, ran.stderr).toBe(0);
    const refused = await cli('annotate', 'create-set', 'verified', '--size', '4', '--task', 'nope');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/has no rating task "nope"/);
    const created = await cli(
      'annotate',
      'create-set',
      'verified',
      '--size',
      '16',
      '--task',
      'translation_equivalence',
      '--name',
      'equivalence',
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/Created rating set \d+ "equivalence" with 16 units/);
    const out = join(dir, 'equivalence.csv');
    expect(
      (await cli('annotate', 'label-template', 'equivalence', '--annotator', 'Lin', '--out', out)).code,
    ).toBe(0);
    const rows = parse(readFileSync(out, 'utf8').replace(/^\uFEFF/, ''), { columns: true }) as Record<
      string,
      string
    >[];
    expect(rows).toHaveLength(16);
    expect(Object.keys(rows[0])).toContain('label');
    // A person who finds every translation equivalent: the checks' flags are all false alarms.
    const filled = join(dir, 'equivalence-filled.csv');
    const header = Object.keys(rows[0]);
    const quote = (v: string) => `"${v.replace(/"/g, '""')}"`;
    writeFileSync(
      filled,
      [
        header.join(','),
        ...rows.map((row) => header.map((h) => quote(h === 'label' ? 'yes' : row[h])).join(',')),
      ].join('\r\n'),
    );
    const imported = await cli('annotate', 'import-labels', 'equivalence', filled);
    expect(imported.code, imported.stderr).toBe(0);
    const json = JSON.parse(
      (await cli('annotate', 'agreement', 'equivalence', '--json')).stdout,
    ) as AgreementReport;
    const acc = json.check_accuracy!;
    expect(acc.map((a) => a.judge)).toEqual(['LLM verdict', 'chrF ≥ 40']);
    for (const a of acc) {
      expect(a.n).toBe(16);
      expect(a.sensitivity).toBeNull();
      expect(a.sensitivity_undefined_reason).toBe('no human-positive items');
      expect(a.specificity).toBe(a.true_negative / 16);
    }
    const text = await cli('annotate', 'agreement', 'equivalence');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/Automatic checks against people/);
    expect(text.stdout).toMatch(/undefined \(no human-positive items\)/);
  }, 120_000);
});
