// A browser page keeps its state in the URL query (filters and the opened row), so back/forward
// and reloads keep the place. Pure helpers shared by every protocol's browser.

/** The query with one filter changed (an empty value removes it) and the opened row closed. */
export function withFilter(q: Record<string, string>, key: string, value: string): Record<string, string> {
  const next = { ...q };
  delete next.open;
  if (value) next[key] = value;
  else delete next[key];
  return next;
}

/** A row's key in the URL (`open`): its identifying fields joined by a separator no text contains. */
export const urlRowKey = (...parts: (string | number)[]): string => parts.join('\u001f');
