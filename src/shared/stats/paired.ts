// Interval for the difference of two paired proportions (e.g. a judge's acceptance of the gold
// answer minus its acceptance of a wrong answer, on the same questions).
import type { CI } from './intervals';
import { wilsonInterval, Z_95 } from './intervals';
import { checkCount } from './checks';

/** How the interval is named in captions, column help and exports. */
export const NEWCOMBE_PAIRED_METHOD = 'Newcombe (1998) method 10 hybrid score interval';

/**
 * The correlation estimate Newcombe's method 10 puts between the two margins: φ of the 2×2 table
 * with its continuity correction, (ad − bc − n/2) / √((a+b)(c+d)(a+c)(b+d)) when ad − bc > n/2,
 * 0 when 0 ≤ ad − bc ≤ n/2, and the plain φ when ad − bc < 0 (Newcombe 1998, p. 2639; as
 * Fagerland, Lydersen & Laake's contingencytables `Newcombe_square_and_add_CI_paired_2x2`).
 * 0 when a margin is empty.
 */
export function newcombeCorrectedPhi(a: number, b: number, c: number, d: number): number {
  const n = a + b + c + d;
  const denominator = (a + b) * (c + d) * (a + c) * (b + d);
  if (denominator === 0) return 0;
  const cross = a * d - b * c;
  const corrected = cross > n / 2 ? cross - n / 2 : cross >= 0 ? 0 : cross;
  return corrected / Math.sqrt(denominator);
}

/**
 * Newcombe's hybrid score interval for p1 − p2 from paired binary data (Newcombe 1998,
 * Stat Med 17:2635, method 10): Wilson intervals of both margins combined with the corrected φ
 * above. Cells: a = yes/yes, b = yes/no, c = no/yes, d = no/no; p1 = (a+b)/n, p2 = (a+c)/n.
 * n = 0 gives [−1, 1]. The result is clipped to [−1, 1]. Checked against the paper's Table III
 * and Fagerland et al.'s Cavo et al. (2012) example in test/stats/conformance/paired-difference.
 */
export function newcombePairedInterval(a: number, b: number, c: number, d: number, z: number = Z_95): CI {
  for (const [name, v] of Object.entries({ a, b, c, d })) checkCount(name, v);
  const n = a + b + c + d;
  if (n === 0) return [-1, 1];
  const p1 = (a + b) / n;
  const p2 = (a + c) / n;
  const [l1, u1] = wilsonInterval(a + b, n, z);
  const [l2, u2] = wilsonInterval(a + c, n, z);
  const phi = newcombeCorrectedPhi(a, b, c, d);
  const diff = p1 - p2;
  const delta = Math.sqrt(Math.max(0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2));
  const epsilon = Math.sqrt(Math.max(0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2));
  return [Math.max(-1, diff - delta), Math.min(1, diff + epsilon)];
}
