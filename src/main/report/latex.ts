// booktabs LaTeX tables that compile with plain pdflatex: every piece of text (headers, captions,
// judge labels, item ids, reasons) goes through escapeLatex, which also keeps non-ASCII input safe.
import { controlNotation } from '../../shared/control-chars';
import { formatCell, type Table, type TableRow } from '../../shared/report/table';

/** TeX's ten special characters, as text in any engine (XeLaTeX too: the Chinese Methods text). */
export const TEX_SPECIALS: Readonly<Record<string, string>> = {
  '\\': '\\textbackslash{}',
  '&': '\\&',
  '%': '\\%',
  $: '\\$',
  '#': '\\#',
  _: '\\_',
  '{': '\\{',
  '}': '\\}',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
};

const SPECIALS: Record<string, string> = {
  ...TEX_SPECIALS,
  // In the default OT1 font encoding these print as other glyphs (¡ ¿ —).
  '<': '\\textless{}',
  '>': '\\textgreater{}',
  '|': '\\textbar{}',
  // \textquotedbl exists only in T1; the typewriter font's slot 34 is a straight quote in OT1 too.
  '"': '{\\ttfamily\\char34}',
};

/**
 * Symbols the app's own texts use (captions, Methods) set in math mode: a text font lacks them
 * (Latin Modern has no Greek), so XeLaTeX's Chinese Methods needs them too.
 */
export const MATH_SYMBOLS: Record<string, string> = {
  '\u00D7': '$\\times$',
  '\u2212': '$-$',
  '\u2264': '$\\leq$',
  '\u2265': '$\\geq$',
  '\u2260': '$\\neq$',
  '\u00B1': '$\\pm$',
  '\u00B7': '$\\cdot$',
  '\u2192': '$\\rightarrow$',
  '\u2194': '$\\leftrightarrow$',
  '\u221A': '$\\surd$',
  '\u2713': '$\\surd$',
  '\u2717': '$\\times$',
  '\u00BD': '$\\frac{1}{2}$',
  '\u00B2': '$^{2}$',
  '\u00B3': '$^{3}$',
  '\u00B9': '$^{1}$',
  '\u0393': '$\\Gamma$',
  '\u0394': '$\\Delta$',
  '\u03A3': '$\\Sigma$',
  '\u03B1': '$\\alpha$',
  '\u03B2': '$\\beta$',
  '\u03B3': '$\\gamma$',
  '\u03B4': '$\\delta$',
  '\u03B5': '$\\varepsilon$',
  '\u03B8': '$\\theta$',
  '\u03BA': '$\\kappa$',
  '\u03BB': '$\\lambda$',
  '\u03BC': '$\\mu$',
  '\u00B5': '$\\mu$',
  '\u03C0': '$\\pi$',
  '\u03C1': '$\\rho$',
  '\u03C3': '$\\sigma$',
  '\u03C4': '$\\tau$',
  '\u03C6': '$\\phi$',
  '\u03C7': '$\\chi$',
  '\u03C8': '$\\psi$',
  '\u03C9': '$\\omega$',
};

const UNICODE: Record<string, string> = {
  ...MATH_SYMBOLS,
  '\u2013': '--',
  '\u2014': '---',
  '\u2018': '`',
  '\u2019': "'",
  '\u201C': '``',
  '\u201D': "''",
  '\u2026': '\\ldots{}',
  '\u00A0': '~',
  '\u00DF': '{\\ss}',
  '\u00A7': '\\S{}',
  '\u2022': '\\textbullet{}',
  '\u00BF': '\\textquestiondown{}',
};

// Combining marks that have an OT1-safe LaTeX accent command (NFD splits "é" into "e" + U+0301).
const ACCENTS: Record<string, string> = {
  '\u0300': '\\`',
  '\u0301': "\\'",
  '\u0302': '\\^',
  '\u0303': '\\~',
  '\u0304': '\\=',
  '\u0306': '\\u',
  '\u0307': '\\.',
  '\u0308': '\\"',
  '\u030A': '\\r',
  '\u030B': '\\H',
  '\u030C': '\\v',
  '\u0327': '\\c',
  '\u0328': '\\k',
};

/**
 * Text → LaTeX for pdflatex. Special characters are escaped; accented Latin letters become accent
 * commands; any other non-ASCII character (e.g. Chinese, which the tables do not need) is written
 * as its code point "U+4E2D" so the document always compiles and nothing is silently dropped.
 */
export function escapeLatex(text: string): string {
  // Printable ASCII is its own NFD, and normalize() pages in ICU's normalization data (issue 39: a
  // one-study process's tables are mostly ASCII).
  const chars = [...(/^[ -~\t\r\n]*$/.test(text) ? text : text.normalize('NFD'))];
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    const next = chars[i + 1];
    if (ch === '=' && next === '\u0338') {
      // NFD splits ≠ into "=" and a combining long solidus.
      out += MATH_SYMBOLS['\u2260'];
      i++;
    } else if (next !== undefined && ACCENTS[next] && /[A-Za-z]/.test(ch)) {
      out += `${ACCENTS[next]}{${ch}}`;
      i++;
    } else if (SPECIALS[ch]) {
      out += SPECIALS[ch];
    } else if (UNICODE[ch]) {
      out += UNICODE[ch];
    } else if (/[\r\n\t]/.test(ch)) {
      out += ' ';
    } else if (ch >= ' ' && ch <= '~') {
      out += ch;
    } else if (ch.charCodeAt(0) < 0x20 || (ch >= '\u007F' && ch <= '\u009F')) {
      // Shown as the other exports show it (\x1B), so nothing vanishes without a trace.
      out += `{\\ttfamily \\textbackslash{}${controlNotation(ch).slice(1)}}`;
    } else if (ACCENTS[ch]) {
      // A lone combining mark carries no printable content.
    } else {
      out += `{\\ttfamily U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}}`;
    }
  }
  return out;
}

/** Tables longer than this become a longtable that can break across pages. */
export const LONGTABLE_ROWS = 40;

function cellText(text: string): string {
  const escaped = escapeLatex(text);
  // A row that starts with "[" or "*" right after "\\" would be read as \\[len] or \\*.
  return /^[[*]/.test(escaped) ? `{${escaped}}` : escaped;
}

function rowLine(table: Table, row: TableRow): string {
  return table.columns.map((c) => cellText(formatCell(c, row[c.key]))).join(' & ') + ' \\\\';
}

function bodyLines(table: Table): string[] {
  const lines: string[] = [];
  const grouped = table.columns[0]?.key === 'judge';
  table.rows.forEach((row, i) => {
    // A little air between judges reads better than a rule in booktabs style.
    if (grouped && i > 0 && row.judge !== table.rows[i - 1].judge) lines.push('\\addlinespace');
    lines.push(rowLine(table, row));
  });
  if (table.rows.length === 0) {
    lines.push(`\\multicolumn{${table.columns.length}}{c}{\\emph{No data}} \\\\`);
  }
  if (table.footer?.length) {
    lines.push('\\midrule');
    for (const row of table.footer) lines.push(rowLine(table, row));
  }
  return lines;
}

function columnSpec(table: Table): string {
  const cols = table.columns.map((c) =>
    c.width ? `>{\\raggedright\\arraybackslash}p{${c.width}\\linewidth}` : c.align,
  );
  return `@{}${cols.join('')}@{}`;
}

/** The packages a document needs to \input these tables. */
export const LATEX_PACKAGES = ['booktabs', 'array', 'longtable'] as const;

/** One table as a LaTeX snippet for \input: a floating table, or a longtable when it is long. */
/** `protocol` prefixes the label (`tab:<protocol>-<table>`), so tables of two studies can share a paper. */
export function tableToLatex(table: Table, protocol = 'judge-lab'): string {
  const header = table.columns.map((c) => cellText(c.header)).join(' & ') + ' \\\\';
  const caption = `\\caption{${escapeLatex(table.title)}. ${escapeLatex(table.caption)}}`;
  const label = `\\label{tab:${protocol}-${table.id.replace(/[^A-Za-z0-9-]/g, '-')}}`;
  const preamble = [
    `% Judge Lab, ${protocol}: ${escapeLatex(table.title)}`,
    `% Needs \\usepackage{${LATEX_PACKAGES.join(',')}}`,
  ];
  if (table.rows.length > LONGTABLE_ROWS) {
    return [
      ...preamble,
      '\\begingroup',
      '\\small',
      `\\begin{longtable}{${columnSpec(table)}}`,
      `${caption}${label} \\\\`,
      '\\toprule',
      header,
      '\\midrule',
      '\\endfirsthead',
      '\\toprule',
      header,
      '\\midrule',
      '\\endhead',
      '\\bottomrule',
      '\\endfoot',
      ...bodyLines(table),
      '\\end{longtable}',
      '\\endgroup',
      '',
    ].join('\n');
  }
  return [
    ...preamble,
    '\\begin{table}[tbp]',
    '\\centering',
    '\\small',
    caption,
    label,
    `\\begin{tabular}{${columnSpec(table)}}`,
    '\\toprule',
    header,
    '\\midrule',
    ...bodyLines(table),
    '\\bottomrule',
    '\\end{tabular}',
    '\\end{table}',
    '',
  ].join('\n');
}
