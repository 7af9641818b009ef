// Which words changed between the English verdict's reason and the target-language one.
import { diffChars, diffWords, type Change } from 'diff';

// Han, kana, hangul, CJK punctuation and full-width forms: text without spaces between words.
const CJK = /[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/;

export function hasCjk(text: string): boolean {
  return CJK.test(text);
}

export interface DiffPart {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

/**
 * Word-level for English; character-level as soon as either side has CJK text, where a "word"
 * would otherwise be a whole sentence. `mode` says which was used.
 */
export function diffReasons(before: string, after: string): { mode: 'words' | 'chars'; parts: DiffPart[] } {
  const chars = hasCjk(before) || hasCjk(after);
  const changes: Change[] = chars ? diffChars(before, after) : diffWords(before, after);
  return {
    mode: chars ? 'chars' : 'words',
    parts: changes.map((c) => ({ kind: c.added ? 'added' : c.removed ? 'removed' : 'same', text: c.value })),
  };
}
