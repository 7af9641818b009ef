// A table of the shared table model as a GitHub-flavoured Markdown table (the same cell text as
// the CSV and LaTeX versions). Cell text may come from datasets and models: every character
// Markdown or HTML would read as markup is escaped, so it shows as the text it is.
import { showControlChars } from '../../shared/control-chars';
import { formatCell, type Table } from '../../shared/report/table';

/** Escapes Markdown and HTML markup; line breaks become spaces (a table row is one line). */
export function escapeMarkdown(text: string): string {
  return showControlChars(text)
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/[\\`*_[\]|~]/g, (c) => `\\${c}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;');
}

export function tableToMarkdown(table: Table): string {
  const align = { l: ':--', c: ':-:', r: '--:' } as const;
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const rows = [...table.rows, ...(table.footer ?? [])].map((row) =>
    line(table.columns.map((c) => escapeMarkdown(row[c.key] == null ? '' : formatCell(c, row[c.key])))),
  );
  return [
    `**${escapeMarkdown(table.title)}**`,
    '',
    line(table.columns.map((c) => escapeMarkdown(c.header))),
    line(table.columns.map((c) => align[c.align as keyof typeof align] ?? align.l)),
    ...rows,
    '',
    `_${escapeMarkdown(table.caption)}_`,
    '',
  ].join('\n');
}
