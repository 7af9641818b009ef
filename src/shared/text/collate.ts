// String order as `a.localeCompare(b)` gives it, without ICU for plain names.

const NAME = /^[A-Za-z0-9]*$/;

/**
 * `a.localeCompare(b)` (ICU's root collation), computed here when both are letters and digits
 * only: the first comparison pages in ~1.6 MiB of ICU's collation data, which a one-study process
 * then keeps to its end (issue 39: the methods facts sort the prompt templates' names). For such
 * names the root order is: digits before letters, letters alphabetical whatever their case, and
 * among names equal but for case, at the first place their case differs, lowercase first. Any
 * other text goes to localeCompare.
 */
export function compareNames(a: string, b: string): number {
  if (!NAME.test(a) || !NAME.test(b)) return a.localeCompare(b);
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return a[i] === la[i] ? -1 : 1;
  }
  return 0;
}
