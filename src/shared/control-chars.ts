// Control characters in text that came from a file or a model. XML (SVG, XLSX) has no place for
// most C0 controls, so one ESC in a subset name made every figure fail to parse; a terminal runs
// ESC and C1 sequences, so a model reason with ANSI codes replayed them on `cat judgments.csv`.
// Importers refuse them in names (`controlCharProblem`); writers show them (`showControlChars`).

// C0 controls except TAB, LF and CR (legitimate in text), DEL and the C1 controls (U+009B is a
// one-character CSI on terminals that honour C1).
// eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
const CONTROL_ALL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
// Besides the controls, XML 1.0 forbids U+FFFE, U+FFFF and unpaired surrogates.
const XML_ILLEGAL = /[\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `\x1B` for U+001B: what the writers put in place of a control character. */
export function controlNotation(ch: string): string {
  return `\\x${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
}

/** True when the text holds a control character other than TAB, LF or CR. */
export function hasControlChars(text: string): boolean {
  return CONTROL.test(text);
}

/**
 * The text with each control character (other than TAB, LF, CR) written visibly as `\x1B`, and
 * each character XML cannot hold (U+FFFE, U+FFFF, an unpaired surrogate) as U+FFFD. Text without
 * them is returned unchanged (the common case costs one regex test).
 */
export function showControlChars(text: string): string {
  if (!CONTROL.test(text) && !/[\uD800-\uDFFF\uFFFE\uFFFF]/.test(text)) return text;
  return text.replace(CONTROL_ALL, controlNotation).replace(XML_ILLEGAL, '\uFFFD');
}

/**
 * Why a name-like value (an id, a subset, a category, an annotator…) is refused, or undefined:
 * such values label tables, figures and folders, where a control character has no meaning.
 */
export function controlCharProblem(value: string): string | undefined {
  const m = CONTROL.exec(value);
  if (!m) return undefined;
  return (
    `holds the control character ${controlNotation(m[0])} at character ${m.index + 1}; ` +
    'names, ids and labels may not contain control characters (remove it)'
  );
}
