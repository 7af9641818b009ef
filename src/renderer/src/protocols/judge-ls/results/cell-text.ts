// Judge-LS's table cells in the UI's language: the table model (what the exports write) holds
// English words in a few text columns (failure kinds and reasons, roles, notes, test names).
// On screen in 中文 those are translated; judge labels, subsets and language codes are data.
import type { TableColumn, TableRow } from '../../../../../shared/report/table';
import { undefinedTextZh } from '../../../../../shared/report/undefined-zh';
import { failureReasonText } from '../../host';

const EXACT_ZH: Record<string, Record<string, string>> = {
  kind: { quality: '质量判断', repeat: '重复提问（噪声底线）', tie_probe: '平局探针', transform: '翻译' },
  role: { transformer: '翻译模型', judge: '评审模型', Total: '合计' },
  // The transformer stands in the judge column of the failures and usage tables.
  judge: { transformer: '翻译模型' },
  comparison: { 'Tie probe EN vs ZH': '平局探针 EN 对 ZH', 'EN-EN (repeat)': 'EN-EN（重复提问）' },
  test: { 'McNemar (exact)': 'McNemar（精确）', 'Binomial (exact)': '二项检验（精确）' },
};

/** The notes of rows without valid verdicts (report/tables.ts). */
function noteZh(note: string): string {
  if (note === 'first rate undefined (no item decided in both orders)')
    return '第一位置率无定义（没有在两种顺序下都作出判断的条目）';
  const m = /^no valid verdicts(?: in (.+))? \((\d+) failed, see failures\)$/.exec(note);
  if (!m) return note;
  const where = m[1] ? `${m[1].split(' and ').join(' 和 ')} 中` : '';
  return `${where}没有有效的判断（${m[2]} 次失败，见“失败”）`;
}

/** The cell's text in `lang` (English: as the export writes it). */
export function judgeLsCellText(lang: string) {
  if (!lang.startsWith('zh')) return undefined;
  return (column: TableColumn, _row: TableRow, text: string): string => {
    if (column.key === 'reason') return failureReasonText(text, lang);
    if (column.key === 'note') return noteZh(text);
    const probe = column.key === 'comparison' ? /^Tie probe EN vs (.+)$/.exec(text) : null;
    if (probe && !EXACT_ZH.comparison[text]) return `平局探针 EN 对 ${probe[1]}`;
    return EXACT_ZH[column.key]?.[text] ?? undefinedTextZh(text);
  };
}
