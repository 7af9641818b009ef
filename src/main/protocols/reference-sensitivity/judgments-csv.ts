// judgments.csv of a reference-sensitivity export: one row per calibration or judge call.
import { toCsv } from '../host';
import type { TaskCall, TaskResult } from '../plugin';
import type { CorrectnessVerdict } from '../../judging/correctness';
import type { CalibrateMeta, JudgeMeta } from './plan';
import type { RefSensExperiment } from './experiment';
import { qaItem } from './qa-item';

const HEADER = [
  'judge',
  'item_id',
  'language',
  'kind',
  'generator',
  'setting',
  'shown_answer',
  'extracted_answer',
  'verdict',
  'explanation',
  'gold_answers',
  'status',
  'attempts',
  'input_tokens',
  'output_tokens',
  'reason',
];

export function judgmentsCsv(
  exp: RefSensExperiment,
  results: readonly TaskResult[],
  calls: ReadonlyMap<number, TaskCall>,
): string {
  const gold = new Map(exp.items.map((i) => [i.sourceId, qaItem(i).answers]));
  const generated = new Map<string, string>();
  for (const r of results)
    if (r.stage === 'generate' && r.status === 'ok') {
      const m = r.meta as { generator: string; sourceId: string };
      generated.set(`${m.generator}\u0000${m.sourceId}`, (r.value as { answer: string }).answer);
    }
  for (const a of exp.options.imported) generated.set(`${a.generator}\u0000${a.itemId}`, a.answer);
  const rows: (string | number)[][] = [];
  // The `sample` column (1 = the noise floor's NR repeat) only when there are repeats, so the
  // file is byte-identical to before without them.
  const withSample = results.some((r) => r.stage === 'judge' && (r.meta as JudgeMeta).sample);
  for (const r of results) {
    if (r.stage !== 'calibrate' && r.stage !== 'judge') continue;
    const v = r.status === 'ok' ? (r.value as CorrectnessVerdict) : null;
    const call = calls.get(r.requestId);
    const common = (m: { judge: string; sourceId: string; language: string }) => [
      m.judge,
      m.sourceId,
      m.language,
    ];
    const tail = [
      v?.extracted_answer ?? '',
      v?.verdict ?? '',
      v?.explanation ?? '',
      JSON.stringify(gold.get((r.meta as { sourceId: string }).sourceId) ?? []),
      r.status,
      r.attempts,
      call?.inputTokens ?? '',
      call?.outputTokens ?? '',
      r.status === 'failed' ? (r.reason ?? '') : '',
    ];
    if (r.stage === 'calibrate') {
      const m = r.meta as CalibrateMeta;
      rows.push([...common(m), 'calibration', '', m.probe, m.shown, ...tail, ...(withSample ? [0] : [])]);
    } else {
      const m = r.meta as JudgeMeta;
      rows.push([
        ...common(m),
        'sensitivity',
        m.generator,
        m.setting,
        generated.get(`${m.generator}\u0000${m.sourceId}`) ?? '',
        ...tail,
        ...(withSample ? [m.sample ?? 0] : []),
      ]);
    }
  }
  return toCsv(
    withSample ? [...HEADER, 'sample'] : HEADER,
    rows.map((r) => r.map(String)),
  );
}
