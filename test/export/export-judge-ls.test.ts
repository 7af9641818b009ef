import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FIGURE_BUILDERS,
  tieProbePreferenceFigure,
} from '../../src/shared/protocols/judge-ls/report/figures';
import {
  exportJudgeLs,
  METRICS_KEYS,
  metricsJson,
  type ExportJudgeLsInput,
  type ExportJudgeLsResult,
} from './judge-ls-folder';
import type { JudgeLsMetrics } from '../../src/shared/protocols/judge-ls/types';
import { makeJudgments, makeMetrics } from './fixture';

const SECTION_8_KEYS = [
  'quality',
  'language_invariance',
  'position',
  'tie_probe',
  'subset_quality',
  'subset_flip',
  'audit',
  'sensitivity',
  'usage',
  'failures',
  'statistics',
];

function input(): ExportJudgeLsInput {
  return {
    metrics: makeMetrics(),
    judgments: makeJudgments(),
    tokens: makeJudgments().map(() => ({ inputTokens: 1000, outputTokens: 50 })),
    manifest: {
      appVersion: '9.9.9',
      experiment: { id: 7, name: 'judge-ls-llmbar' },
      config: { name: 'judge-ls-llmbar', protocol: 'judge-ls', judges: [{ label: 'GPT-4.1 mini' }] },
      promptTemplates: { judge_pairwise: 'Which output is better? {{instruction}}' },
      models: [{ role: 'judge', label: 'GPT-4.1 mini', provider: 'openai', model: 'gpt-4.1-mini' }],
      counts: { items: 3, requests: 42 },
      time: { startedAt: '2026-01-02T03:04:05.000Z', finishedAt: '2026-01-02T04:00:00.000Z' },
    },
  };
}

/** Every file under dir with a content hash, to prove a failed export changed nothing. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

describe('exportJudgeLs', () => {
  const root = mkdtempSync(join(tmpdir(), 'jl-export-'));
  const out = join(root, 'results');
  let result: ExportJudgeLsResult;
  const exportedAt = new Date('2026-02-03T10:00:00.000Z');

  beforeAll(async () => {
    result = await exportJudgeLs(out, input(), { now: () => exportedAt });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('writes the section-8 folder: metrics, judgments, tables, figures and manifest', () => {
    const expected = [
      'metrics.json',
      'judgments.csv',
      'manifest.json',
      'tables/tables.xlsx',
      ...[
        'quality',
        'invariance',
        'tie_probe',
        'usage',
        'position',
        'significance',
        'audit',
        'audit_items',
        'sensitivity',
        'subset_quality',
        'subset_flip',
        'failures',
      ].flatMap((t) => [`tables/${t}.tex`, `tables/${t}.csv`]),
      ...[
        'accuracy_by_language',
        'accuracy_drop',
        'flip_rates',
        'position_inconsistency',
        'tie_probe_preference',
        'subset_quality_heatmap',
        'subset_flip_heatmap',
      ].flatMap((f) => [`figures/${f}.svg`, `figures/${f}.png`]),
    ];
    for (const file of expected) expect(existsSync(join(out, file)), file).toBe(true);
    expect(Object.keys(snapshot(out)).sort()).toEqual([...result.files].sort());
    expect(readdirSync(root)).toEqual(['results']);
  });

  it('writes metrics.json pretty-printed with exactly the section-8 top-level keys', () => {
    const text = readFileSync(join(out, 'metrics.json'), 'utf8');
    expect(text).toMatch(/^\{\n {2}"quality": \[/);
    const parsed = JSON.parse(text);
    expect(Object.keys(parsed)).toEqual(SECTION_8_KEYS);
    expect([...METRICS_KEYS]).toEqual(SECTION_8_KEYS);
    expect(Object.keys(parsed.audit)).toEqual(['checks', 'flagged']);
    expect(Object.keys(parsed.sensitivity)).toEqual(['excluded_item_ids', 'quality', 'language_invariance']);
    expect(parsed.quality[0]).toEqual(makeMetrics().quality[0]);
  });

  it('writes a manifest with version, experiment, config, templates, models, counts, times and files', () => {
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({
      protocol: 'judge-ls',
      app_version: '9.9.9',
      experiment: { id: 7, name: 'judge-ls-llmbar' },
      // Only the keyless demo's exports say true (test/cli/cli-simulated.test.ts).
      simulated: false,
      time: {
        started_at: '2026-01-02T03:04:05.000Z',
        finished_at: '2026-01-02T04:00:00.000Z',
        exported_at: exportedAt.toISOString(),
      },
      counts: { items: 3, requests: 42 },
      prompt_templates: { judge_pairwise: 'Which output is better? {{instruction}}' },
      config: { protocol: 'judge-ls' },
    });
    expect(manifest.models[0]).toEqual({
      role: 'judge',
      label: 'GPT-4.1 mini',
      provider: 'openai',
      model: 'gpt-4.1-mini',
    });
    expect(manifest.files).toEqual(result.files);
  });

  it('writes judgments.csv with the token columns filled', () => {
    const csv = readFileSync(join(out, 'judgments.csv'), 'utf8');
    expect(csv.split('\r\n')[1]).toBe(
      'GPT-4.1 mini,item_1,Natural,quality,EN,orig,A,1,1,1,ok,1,1000,50,Output (a) follows the instruction.',
    );
  });

  it('leaves the folder untouched when an export fails half-way', async () => {
    writeFileSync(join(out, 'notes.txt'), 'my own notes');
    const before = snapshot(out);
    const broken = [
      ...FIGURE_BUILDERS.slice(0, 2),
      () => {
        throw new Error('figure exploded');
      },
    ];
    await expect(exportJudgeLs(out, input(), { figures: broken })).rejects.toThrow('figure exploded');
    expect(snapshot(out)).toEqual(before);
    expect(readdirSync(root)).toEqual(['results']);
  });

  it('replaces only its own files on a second export and keeps the rest of the folder', async () => {
    mkdirSync(join(out, 'figures', 'stale'), { recursive: true });
    const second = await exportJudgeLs(out, input(), {
      figures: [tieProbePreferenceFigure],
      png: false,
      xlsx: false,
    });
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('my own notes');
    expect(readdirSync(join(out, 'figures'))).toEqual(['tie_probe_preference.svg']);
    expect(existsSync(join(out, 'tables', 'tables.xlsx'))).toBe(false);
    expect(Object.keys(snapshot(out)).sort()).toEqual([...second.files, 'notes.txt'].sort());
    expect(readdirSync(root)).toEqual(['results']);
  });

  it('refuses metrics whose top-level keys differ from the contract, naming the keys', () => {
    const { failures: _failures, ...missing } = makeMetrics();
    expect(() => metricsJson(missing as JudgeLsMetrics)).toThrow(/missing failures/);
    const extra = { ...makeMetrics(), bootstrap: [] } as JudgeLsMetrics;
    expect(() => metricsJson(extra)).toThrow(/not in the contract: bootstrap/);
  });

  it('refuses an output path that is a file', async () => {
    const file = join(root, 'a-file');
    writeFileSync(file, 'x');
    await expect(exportJudgeLs(file, input(), { figures: [] })).rejects.toThrow(/is not a directory/);
    rmSync(file);
  });
});
