// A function of a text, remembered by the text itself: a Map keyed by a string hashes it once (V8
// keeps a string's hash), so a hit costs no scan of the text. The texts it keeps stay alive: the
// whole memo is dropped once they pass `maxChars` characters, which bounds its memory.
export function memoByText<T>(maxChars: number, fn: (text: string) => T): (text: string) => T {
  const kept = new Map<string, T>();
  let chars = 0;
  return (text) => {
    if (kept.has(text)) return kept.get(text)!;
    const value = fn(text);
    if (chars + text.length > maxChars) {
      kept.clear();
      chars = 0;
    }
    kept.set(text, value);
    chars += text.length;
    return value;
  };
}
