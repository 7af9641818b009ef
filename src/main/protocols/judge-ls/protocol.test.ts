// The whole protocol on the bundled LLMBar sample (419 items), with scripted answers in
// place of the provider calls: plan → parse → audit → plan → parse → metrics.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Item } from '../../../shared/domain';
import type { JudgmentRecord } from '../../../shared/protocols/judge-ls/types';
import { getProtocol } from '../index';
import { auditVariants } from './audit';
import { judgeLsOptionsSchema } from './config';
import { judgmentOf } from './experiment';
import { computeJudgeLsMetrics } from './metrics';
import type { JudgeTask, TransformTask, Variant } from './model';
import { parsePairwiseVerdict as parseVerdict } from '../../judging/pairwise';
import { parseVariant } from './parse';
import { planJudgments, planTransforms } from './plan';

const SAMPLE = fileURLToPath(new URL('../../../../resources/samples/llmbar.jsonl', import.meta.url));

function loadItems(): Item[] {
  return readFileSync(SAMPLE, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((line, i) => {
      const r = JSON.parse(line) as Record<string, unknown>;
      return {
        id: i + 1,
        datasetId: 1,
        sourceId: r.id as string,
        position: i + 1,
        subset: r.subset as string,
        instruction: r.instruction as string,
        output1: r.output_1 as string,
        output2: r.output_2 as string,
        label: r.label as 1 | 2,
      };
    });
}

/** A scripted transformer: copies the English, except for two deliberate faults. */
function transformAnswer(t: TransformTask): unknown {
  const s = t.meta.source;
  if (t.meta.sourceId === 'Natural-002' && t.meta.language === 'LS')
    return { instruction: 'x', output_1: 'y' };
  const instruction =
    t.meta.sourceId === 'Natural-001' && t.meta.language === 'ZH'
      ? s.instruction.replace(/\d/g, '')
      : s.instruction;
  return { instruction, output_1: s.output1, output_2: s.output2 };
}

/** Scripted judges: "Always A" picks A; "Oracle" picks the gold output and calls every probe a tie. */
function verdictAnswer(t: JudgeTask): unknown {
  if (t.meta.judge === 'Always A') {
    if (
      t.meta.sourceId === 'GPTOut-030' &&
      t.meta.kind === 'quality' &&
      t.meta.language === 'EN' &&
      t.meta.order === 'swap'
    ) {
      return 'I cannot decide.';
    }
    return { winner: 'A', confidence: 0.6, reason: 'first' };
  }
  if (t.meta.kind === 'tie_probe') return { winner: 'tie', confidence: 0.9, reason: 'same content' };
  const goldIsA = (t.meta.order === 'orig') === (t.meta.gold === 1);
  return { winner: goldIsA ? 'Response A' : 'b', confidence: 1, reason: 'follows the instruction' };
}

describe('Judge-LS end to end on the LLMBar sample', () => {
  const items = loadItems();
  const options = judgeLsOptionsSchema.parse({});

  it('plans 2 transforms and 8 verdicts per item and judge, and computes consistent metrics', () => {
    expect(items).toHaveLength(419);
    expect(getProtocol('judge-ls').stages.map((s) => s.name)).toEqual(['transform', 'judge', 'verify']);

    const transforms = planTransforms(items, options, { provider: 'openai', model: 'gpt-4.1-mini' });
    expect(transforms).toHaveLength(838);
    const variants: Variant[] = [];
    const transformFailures = [];
    for (const t of transforms) {
      const r = parseVariant(transformAnswer(t), t.meta.source);
      if (r.ok)
        variants.push({ itemId: t.meta.itemId, language: t.meta.language, manual: false, ...r.value });
      else transformFailures.push({ itemId: t.meta.sourceId, language: t.meta.language, reason: r.error });
    }
    expect(transformFailures).toEqual([
      { itemId: 'Natural-002', language: 'LS', reason: '"output_2" is missing' },
    ]);

    const audit = auditVariants(items, variants, options.audit);
    expect(audit.flagged).toHaveLength(1);
    expect(audit.flagged[0].item_id).toBe('Natural-001');
    expect(audit.flagged[0].reasons[0]).toMatch(/^ZH\.instruction: numbers_missing \(EN \d+, ZH 0\)$/);

    const judges = [
      { label: 'Always A', provider: 'openai', model: 'm1' },
      { label: 'Oracle', provider: 'anthropic', model: 'm2' },
    ];
    const tasks = planJudgments(items, variants, judges, options);
    // 419 items × 8 × 2 judges, minus Natural-002's LS pair for each judge.
    expect(tasks).toHaveLength(419 * 8 * 2 - 4);

    const records: JudgmentRecord[] = tasks.map((t) => {
      const r = parseVerdict(verdictAnswer(t));
      const base = judgmentOf(t.meta);
      return r.ok
        ? { ...base, status: 'ok', winner: r.value.winner, confidence: r.value.confidence }
        : { ...base, status: 'failed', winner: null, failureReason: r.error };
    });

    const metrics = computeJudgeLsMetrics(records, {
      flagged: audit.flagged,
      checks: audit.checks,
      usage: [],
      transformFailures,
    });

    // Always A: orig is right when gold is 1 (206 items), swap when gold is 2 (213): 419 of 838.
    // The failed EN swap verdict of GPTOut-030 (gold 1) would have been wrong → EN 419 of 837.
    const q = (judge: string, language: string) =>
      metrics.quality.find((r) => r.judge === judge && r.language === language)!;
    expect(q('Always A', 'EN')).toMatchObject({
      n: 837,
      accuracy_strict: 419 / 837,
      position_a_rate: 1,
      tie_rate: 0,
    });
    expect(q('Always A', 'ZH')).toMatchObject({ n: 838, accuracy_strict: 0.5 });
    expect(q('Always A', 'LS')).toMatchObject({ n: 836 });
    expect(q('Oracle', 'LS')).toMatchObject({
      n: 836,
      accuracy_strict: 1,
      accuracy_tie_half: 1,
      position_a_rate: 418 / 836,
    });
    expect(metrics.position.find((r) => r.judge === 'Always A' && r.language === 'EN')).toMatchObject({
      n: 418,
      inconsistency_rate: 1,
    });
    expect(
      metrics.language_invariance
        .filter((r) => r.judge === 'Oracle')
        .map((r) => [r.comparison, r.n, r.flip_rate]),
    ).toEqual([
      ['EN-ZH', 838, 0],
      ['EN-LS', 836, 0],
    ]);
    expect(
      metrics.tie_probe.map((r) => [
        r.judge,
        r.n,
        r.en_wins,
        'zh_wins' in r && r.zh_wins,
        r.ties,
        r.en_share_non_tie,
      ]),
    ).toEqual([
      ['Always A', 838, 419, 419, 0, 0.5],
      ['Oracle', 838, 0, 0, 838, null],
    ]);
    expect(
      metrics.subset_quality
        .filter((r) => r.judge === 'Oracle' && r.language === 'EN')
        .map((r) => [r.subset, r.n]),
    ).toEqual([
      ['Natural', 200],
      ['Neighbor', 268],
      ['GPTInst', 184],
      ['GPTOut', 94],
      ['Manual', 92],
    ]);
    expect(metrics.sensitivity.excluded_item_ids).toEqual(['Natural-001']);
    expect(metrics.sensitivity.quality.find((r) => r.judge === 'Oracle' && r.language === 'ZH')!.n).toBe(836);
    expect(metrics.failures).toEqual([
      { judge: 'Always A', kind: 'quality', language: 'EN', reason: 'the answer is not JSON', count: 1 },
      { judge: 'transformer', kind: 'transform', language: 'LS', reason: '"output_2" is missing', count: 1 },
    ]);
  });
});
