// The changes between a response and its variant: word-level, character-level as soon as
// either side has CJK text (where a "word" would be a whole sentence).
import { diffChars, diffWords } from 'diff';

const CJK = /[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/;

export interface DiffPart {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

export function textDiff(before: string, after: string): DiffPart[] {
  const changes = CJK.test(before) || CJK.test(after) ? diffChars(before, after) : diffWords(before, after);
  return changes.map((c) => ({ kind: c.added ? 'added' : c.removed ? 'removed' : 'same', text: c.value }));
}
