// texts.csv: the texts each Judge-LS verdict was given, beside judgments.csv and keyed like it
// (item_id = the dataset's id, language EN | ZH | LS), so a reader of the supplement sees what
// the judge read: the English item and each translation as stored (a person's edit included,
// marked edited = 1). A tie probe shows the EN text and its translation (EN-ar: the ar row) of the same item.
import type { Item } from '../../../shared/domain';
import { toCsv } from '../host';
import type { Variant } from './model';
import { englishOf, selectItems } from './plan';

export const TEXTS_HEADER = ['item_id', 'language', 'instruction', 'output_1', 'output_2', 'edited'] as const;

export function textsCsv(items: readonly Item[], variants: readonly Variant[]): string {
  const chosen = selectItems(items);
  const sourceOf = new Map(chosen.map((i) => [i.id, i.sourceId]));
  const rows: string[][] = [];
  for (const item of chosen) {
    const en = englishOf(item);
    rows.push([item.sourceId, 'EN', en.instruction, en.output1, en.output2, '0']);
    for (const v of variants.filter((x) => x.itemId === item.id))
      rows.push([item.sourceId, v.language, v.instruction, v.output1, v.output2, v.manual ? '1' : '0']);
  }
  // A variant of an item no longer selected (a smaller limit later) still has its verdicts.
  for (const v of variants)
    if (!sourceOf.has(v.itemId)) {
      const item = items.find((i) => i.id === v.itemId);
      if (item)
        rows.push([item.sourceId, v.language, v.instruction, v.output1, v.output2, v.manual ? '1' : '0']);
    }
  return toCsv(TEXTS_HEADER, rows);
}
