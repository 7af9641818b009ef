// A protocol's tables on screen: English is the table as the export writes it; in 中文 the
// protocol gives its titles, captions, column headers and the fixed words in cells, and this kit
// applies them. Words every protocol's tables share (usage, the paired first-position columns)
// are here once.
import type { Table, TableColumn, TableRow } from '../../../shared/report/table';

export interface TableText {
  title: string;
  caption: string;
  headerText?: (column: TableColumn) => string;
  cellText?: (column: TableColumn, row: TableRow, text: string) => string;
}

/** A table's 中文 words; a title or caption left out keeps the English one. */
export interface TableWordsZh {
  title?: string;
  caption?: string;
  headers: Readonly<Record<string, string>>;
  /** A cell's text in 中文 (numbers and data come back unchanged). */
  cell: (column: TableColumn, text: string) => string;
}

/**
 * The table's words on screen in `lang`. `zh` is asked only for a 中文 screen; returning null
 * leaves the whole table in English (a table the protocol has no translation for).
 */
export function screenTableText(table: Table, lang: string, zh: () => TableWordsZh | null): TableText {
  const english = { title: table.title, caption: table.caption };
  const words = lang.startsWith('zh') ? zh() : null;
  if (!words) return english;
  return {
    title: words.title ?? table.title,
    caption: words.caption ?? table.caption,
    headerText: (c) => words.headers[c.key] ?? c.header,
    cellText: (c, _row, text) => words.cell(c, text),
  };
}

/** A study's 中文 table words, declared once: titles by table id, captions from the metrics. */
export interface StudyTableWordsZh<M> {
  titles: Readonly<Record<string, string>>;
  /** A table's caption with the metrics' numbers; undefined keeps the English one. */
  caption: (tableId: string, metrics: M) => string | undefined;
  headers: Readonly<Record<string, string>>;
  cell: (column: TableColumn, text: string) => string;
}

/**
 * The screen words of a study's tables: English as exported, or in 中文 the study's declared
 * words; the usage table every study exports needs no declaration.
 */
export function studyTableText<M>(zh: StudyTableWordsZh<M>) {
  return (table: Table, metrics: M, lang: string): TableText =>
    screenTableText(table, lang, () => ({
      title: zh.titles[table.id] ?? (table.id === 'usage' ? USAGE_TABLE_ZH.title : undefined),
      caption: zh.caption(table.id, metrics) ?? (table.id === 'usage' ? USAGE_TABLE_ZH.caption : undefined),
      headers: zh.headers,
      cell: zh.cell,
    }));
}

/** The usage table every protocol exports. */
export const USAGE_TABLE_ZH = { title: '用量与费用', caption: '按模型角色统计的调用、词元和费用。' };

/** Columns that mean the same in every protocol's tables. */
export const COMMON_HEADERS_ZH: Readonly<Record<string, string>> = {
  judge: '评审模型',
  role: '角色',
  model: '模型',
  calls: '调用',
  input_tokens: '输入词元',
  output_tokens: '输出词元',
  cost_usd: '费用',
};

/** The paired first-position columns (an item's two orders), wherever a table has them. */
export const FIRST_POSITION_HEADERS_ZH: Readonly<Record<string, string>> = {
  both_first: '两次都选第一位',
  both_second: '两次都选第二位',
  first_rate: '第一位置率',
  first_rate_ci: '95% 置信区间',
  lean_p: '偏向 p',
};
