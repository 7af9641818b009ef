// texts.csv: the answers the reference-sensitivity judges graded (issue 26 item 3), beside
// judgments.csv and keyed like its sensitivity rows (item_id, generator): each generated answer as
// stored and each imported one (source = generated | imported), with the question, its language
// and the gold answers, so the supplement shows what the judge read. Calibration rows carry their
// shown answer in judgments.csv already.
import { toCsv } from '../host';
import type { TaskResult } from '../plugin';
import type { RefSensExperiment } from './experiment';
import { qaItem } from './qa-item';

export const REFSENS_TEXTS_HEADER = [
  'item_id',
  'generator',
  'language',
  'source',
  'question',
  'answer',
  'gold_answers',
  'human_label',
] as const;

export function refSensTextsCsv(exp: RefSensExperiment, results: readonly TaskResult[]): string {
  const items = new Map(exp.items.map((i) => [i.sourceId, qaItem(i)]));
  const rows: string[][] = [];
  const row = (sourceId: string, generator: string, source: string, answer: string, label: string) => {
    const q = items.get(sourceId);
    rows.push([
      sourceId,
      generator,
      q?.language ?? '',
      source,
      q?.question ?? '',
      answer,
      JSON.stringify(q?.answers ?? []),
      label,
    ]);
  };
  for (const r of results)
    if (r.stage === 'generate' && r.status === 'ok') {
      const m = r.meta as { generator: string; sourceId: string };
      row(m.sourceId, m.generator, 'generated', (r.value as { answer: string }).answer, '');
    }
  for (const a of exp.options.imported) row(a.itemId, a.generator, 'imported', a.answer, a.humanLabel ?? '');
  return toCsv(REFSENS_TEXTS_HEADER, rows);
}
