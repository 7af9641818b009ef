// Hand edits of bias probes' rewrites (issue 35; src/main/protocols/bias-probes/hand-edits.ts)
// against the mock provider: a response's longer rewrite and a paraphrase of the judging
// instructions are replaced by a person's text; the edited texts are audited again, only the judge
// calls that showed the old texts are asked again (the mock's log: the others never twice), the
// old answers stay in the ledger, the edits are counted by the preregistration and named in
// Methods, variants.csv and the manifest, and the study bundle (edits.json) verifies identical.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../../src/main/providers/key-store';
import { DEFAULT_RUBRIC } from '../../../src/main/protocols/bias-probes/prompts';
import type { BiasMetrics } from '../../../src/shared/protocols/bias-probes/types';
import { biasRows, REWRITE_EDIT } from '../../../src/shared/protocols/bias-probes/views';
import { readExportCsv } from '../../helpers/export-csv';
import { tempDir } from '../../helpers/tmp';
import { biasResponder, type PairRecord } from '../../mock-provider/bias-responder';
import { startMockProvider, type MockProvider, type MockRequest } from '../../mock-provider/server';

const SAMPLE = join(import.meta.dirname, '../../../resources/samples/llmbar.jsonl');
const all: PairRecord[] = readFileSync(SAMPLE, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as PairRecord);

const HAND_LONGER = 'A hand-written text, far too short for a longer rewrite.';
const HAND_PARAPHRASE = `${DEFAULT_RUBRIC} (Reworded by hand.)`;

/** The bias mock, plus paraphrases of the instructions and a fixed score for a text it never made. */
function handResponder() {
  const base = biasResponder(all);
  const judged: { prompt: string; answer: unknown }[] = [];
  const respond = (req: MockRequest): unknown => {
    const text = req.lastUser;
    if (text.includes('<judging_instructions>')) {
      const k = Number(/<paraphrase>(\d+) of/.exec(text)![1]);
      return `${DEFAULT_RUBRIC.replace('Judge how well', 'Assess how well')} (Wording ${k}.)`;
    }
    const judging = req.schemaName === 'score_verdict';
    let answer: unknown;
    try {
      answer = base.respond(req);
    } catch (err) {
      // Only the hand-written response is unknown to the bias mock: a score it can tell apart.
      if (!judging || !text.includes(HAND_LONGER)) throw err;
      answer = { score: 1, reason: 'judged the hand-written text' };
    }
    if (judging) judged.push({ prompt: `${req.system ?? ''}\u0000${text}`, answer });
    return answer;
  };
  return { respond, judged };
}

let core: Core;
let mock: MockProvider;
let dir: string;
let cleanup: () => void;
const responder = handResponder();

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  core = new Core({
    dataDir: dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test' }),
    engine: { progressIntervalMs: 200 },
  });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  mock = await startMockProvider({ latencyMs: [0, 0], respond: responder.respond, logBodies: false });
});

afterAll(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup?.();
});

const LIMIT = 6;
const config = (extra: Record<string, unknown> = {}) => ({
  name: 'hand-edits',
  protocol: 'bias-probes',
  dataset: 'LLMBar (sample)',
  limit: LIMIT,
  mode: 'pointwise',
  providers: {
    openai: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY', concurrency: 8 },
  },
  judges: [{ label: 'J', provider: 'openai', model: 'edit-judge' }],
  rewriter: { provider: 'openai', model: 'edit-rewriter' },
  probes: ['length', 'rubric'],
  paraphrases: 2,
  ...extra,
});

const metricsOf = async (id: number) =>
  (await core.call('experiments.results', { experimentId: id })).metrics as BiasMetrics;

describe('hand edits of bias probes rewrites and paraphrases', () => {
  let id: number;
  let edited: { itemId: string; response: string };

  it('replaces a rewrite and a paraphrase, audits them again and asks only the calls that used them', async () => {
    const cfg = config();
    const comparisons = (await core.call('experiments.estimate', { config: cfg })).power!.comparisons;
    // Locked before the edits: the preregistration counts them as a deviation.
    const plan = {
      confirmatory: [comparisons[0].id],
      primary: comparisons[0].id,
      alpha: 0.05,
      correction: 'holm',
      exclusions: 'none',
      stopping: 'all planned items',
      hypotheses: 'The judge scores longer responses higher.',
    };
    id = (await core.call('experiments.create', { config: { ...cfg, preregistration: plan } })).id;
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
    const before = responder.judged.length;
    const asked = new Set(responder.judged.map((j) => j.prompt));
    // The first run asks every prompt once.
    expect(asked.size).toBe(before);

    const rows = biasRows.variants(
      await core.call('experiments.protocolView', { experimentId: id, view: 'variants', query: {} }),
    );
    const longer = rows.find((r) => r.variant === 'longer' && r.reasons.length === 0)!;
    edited = { itemId: longer.itemId, response: longer.response };
    const one = await core.call('experiments.protocolEdit', {
      experimentId: id,
      edit: REWRITE_EDIT,
      fields: { ...edited, variant: 'longer', text: HAND_LONGER, editedBy: 'Ada' },
    });
    // One judge call showed that text: the only slot re-planned.
    expect(one.replanned).toBe(1);
    const row = biasRows.variant(one.row);
    expect(row.text).toBe(HAND_LONGER);
    expect(row.edited?.by).toBe('Ada');
    // Audited again: far shorter than the original, outside the longer band.
    expect(row.reasons.join(' ')).toMatch(/ratio/);

    const two = await core.call('experiments.protocolEdit', {
      experimentId: id,
      edit: REWRITE_EDIT,
      fields: { variant: 'rubric_paraphrase', paraphrase: 0, text: HAND_PARAPHRASE, editedBy: 'Grace' },
    });
    // Paraphrase 0 of 2, round-robin over 6 items: 3 items × 2 responses judged under it.
    expect(two.replanned).toBe(6);
    expect(two.row).toMatchObject({ paraphrase: 0, text: HAND_PARAPHRASE, reasons: [], edited_by: 'Grace' });

    // Names a rewrite the experiment does not make: refused, nothing stored.
    await expect(
      core.call('experiments.protocolEdit', {
        experimentId: id,
        edit: REWRITE_EDIT,
        fields: { variant: 'rubric_paraphrase', paraphrase: 5, text: 'x', editedBy: 'Ada' },
      }),
    ).rejects.toThrow(/makes no paraphrase 5/);

    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
    const again = responder.judged.slice(before);
    // Only the 7 re-planned calls were sent, each a prompt never asked before: nothing paid twice.
    expect(again).toHaveLength(7);
    for (const j of again) expect(asked.has(j.prompt)).toBe(false);
    expect(again.filter((j) => j.prompt.includes(HAND_LONGER))).toHaveLength(1);
    expect(again.filter((j) => j.prompt.includes(HAND_PARAPHRASE))).toHaveLength(6);

    // The old answers stay in the ledger: every judge request the first run answered is still there.
    const dbFile = readdirSync(dir).find((f) => f.endsWith('.sqlite') || f.endsWith('.db'))!;
    const db = new Database(join(dir, dbFile), { readonly: true });
    const judged = db
      .prepare("SELECT COUNT(*) FROM requests WHERE status = 'done' AND model = 'edit-judge'")
      .pluck()
      .get() as number;
    // The plan points at the new requests only; the ledger holds the first run's answers too.
    const planned = db
      .prepare("SELECT COUNT(*) FROM experiment_tasks WHERE experiment_id = ? AND stage = 'judge'")
      .pluck()
      .get(id) as number;
    db.close();
    expect(planned).toBe(before);
    expect(judged).toBe(before + 7);

    const m = await metricsOf(id);
    expect(m.hand_edits).toEqual({ rewrites: 1, paraphrases: 1 });
    const p0 = m.instruction_paraphrases![0].paraphrases.find((p) => p.paraphrase === 0)!;
    expect(p0).toMatchObject({ text: HAND_PARAPHRASE, edited_by: 'Grace' });
    expect(m.audit.flagged).toContainEqual(
      expect.objectContaining({ item_id: edited.itemId, response: edited.response, variant: 'longer' }),
    );
    // The verdict shown for the edited rewrite is the one on the hand-written text.
    const shown = biasRows
      .variants(
        await core.call('experiments.protocolView', { experimentId: id, view: 'variants', query: {} }),
      )
      .find((r) => r.itemId === edited.itemId && r.response === edited.response && r.variant === 'longer')!;
    expect(shown.judgments[0].variant).toEqual({ value: '1', reason: 'judged the hand-written text' });

    const prereg = await core.call('experiments.preregistration', { experimentId: id });
    const textsEdited = prereg.deviations.find((d) => d.kind === 'texts_edited');
    expect(textsEdited?.params).toEqual({ count: 2 });
  }, 120_000);

  it('names the edits in Methods, variants.csv and the manifest', async () => {
    const out = join(dir, 'export');
    const result = await core.experiments.export(id, out);
    const methods = readFileSync(join(result.dir, 'methods.md'), 'utf8');
    expect(methods).toContain('Edited by hand: 1 rewrite and 1 paraphrase of the judging instructions;');
    const variants = readExportCsv(result.dir, 'variants.csv');
    const hand = variants.find(
      (v) => v.item_id === edited.itemId && v.variant === 'longer' && v.response === edited.response,
    )!;
    expect(hand).toMatchObject({ text: HAND_LONGER, edited_by: 'Ada', flagged: '1' });
    const paraphrases = variants.filter((v) => v.variant === 'rubric_paraphrase');
    expect(paraphrases.map((v) => [v.response, v.edited_by])).toEqual([
      ['instructions 1', 'Grace'],
      ['instructions 2', ''],
    ]);
    const manifest = JSON.parse(readFileSync(join(result.dir, 'manifest.json'), 'utf8')) as {
      prompt_templates: Record<string, string>;
      counts: Record<string, number>;
    };
    expect(manifest.counts.hand_edits).toBe(2);
    expect(manifest.prompt_templates['paraphrase.rubric_paraphrase.1']).toBe(HAND_PARAPHRASE);
    expect(manifest.prompt_templates['paraphrase.rubric_paraphrase.2']).toMatch(/\(Wording 2\.\)$/);
  }, 60_000);

  it('carries the edits in the study bundle, whose replay verifies identical', async () => {
    const bundle = await core.call('experiments.exportBundle', { experimentId: id });
    const report = await core.call('bundles.verify', {
      fileName: bundle.fileName,
      contentBase64: bundle.contentBase64,
    });
    expect(report.identical, JSON.stringify(report.checks.filter((c) => !c.equal))).toBe(true);
  }, 120_000);
});
