// Text normalizations of the reference-sensitivity protocol (DESIGN.md section 5b).

const PUNCT = /\p{P}|\p{S}/gu;
const SPACE = /\s+/gu;

/**
 * For "do two answers share anything" (picking the wrong answer for C2, comparing extracted
 * answers): NFKC, case-folded, punctuation, symbols and all spaces removed.
 */
export function strictNormalize(text: string): string {
  // toLowerCase() is the root locale's ("und") case mapping without resolving a locale per call.
  return text.normalize('NFKC').toLowerCase().replace(PUNCT, '').replace(SPACE, '');
}

/**
 * Two gold-answer lists share something when a normalized answer of one equals, contains or is
 * contained in a normalized answer of the other ("King George VI" and "George VI" share).
 * An answer that normalizes to nothing (only punctuation) shares nothing.
 */
export function answersOverlap(a: readonly string[], b: readonly string[]): boolean {
  return normalizedOverlap(normalizedAnswers(a), normalizedAnswers(b));
}

/** The answers as `answersOverlap` compares them (normalized once, for a list compared many times). */
export function normalizedAnswers(answers: readonly string[]): string[] {
  return answers.map(strictNormalize).filter((s) => s !== '');
}

/** `answersOverlap` of lists already normalized by `normalizedAnswers`. */
export function normalizedOverlap(na: readonly string[], nb: readonly string[]): boolean {
  return na.some((x) => nb.some((y) => x === y || x.includes(y) || y.includes(x)));
}

/**
 * SQuAD / TyDi QA answer normalization (the official evaluation scripts): lower case, remove
 * punctuation, remove the English articles a/an/the, collapse whitespace. Unicode punctuation
 * counts as punctuation, as in TyDi's multilingual use of the script.
 */
export function squadNormalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/\p{P}/gu, '')
    .replace(/\b(a|an|the)\b/g, ' ')
    .split(/\s+/u)
    .filter((t) => t !== '')
    .join(' ');
}

function tokens(text: string, normalize: (text: string) => string): string[] {
  const n = normalize(text);
  return n === '' ? [] : n.split(' ');
}

/** 1 when the normalized answer equals a normalized gold answer, else 0. */
export function exactMatch(
  answer: string,
  golds: readonly string[],
  /** squadNormalize, or a caller's memo of it. */
  normalize: (text: string) => string = squadNormalize,
): number {
  const a = normalize(answer);
  return golds.some((g) => normalize(g) === a) ? 1 : 0;
}

/** Token F1 (SQuAD): the best over the gold answers of the harmonic mean of token precision and recall. */
export function tokenF1(
  answer: string,
  golds: readonly string[],
  normalize: (text: string) => string = squadNormalize,
): number {
  const pred = tokens(answer, normalize);
  let best = 0;
  for (const g of golds) {
    const gold = tokens(g, normalize);
    if (pred.length === 0 || gold.length === 0) {
      best = Math.max(best, pred.length === gold.length ? 1 : 0);
      continue;
    }
    const counts = new Map<string, number>();
    for (const t of gold) counts.set(t, (counts.get(t) ?? 0) + 1);
    let common = 0;
    for (const t of pred) {
      const c = counts.get(t) ?? 0;
      if (c > 0) {
        common++;
        counts.set(t, c - 1);
      }
    }
    if (common === 0) continue;
    const precision = common / pred.length;
    const recall = common / gold.length;
    best = Math.max(best, (2 * precision * recall) / (precision + recall));
  }
  return best;
}
