// The reference-sensitivity tables on screen in 中文: titles, captions, column headers and the
// fixed words in cells. The table model (what the exports write) stays English; judge and
// generator labels, languages and the setting codes (NR, RV, RC) are data.
import type { Table } from '../../../../shared/report/table';
import { COMMON_HEADERS_ZH, screenTableText, USAGE_TABLE_ZH, type TableText } from '../../kits/table-text';
import { undefinedTextZh } from '../../../../shared/report/undefined-zh';

const TEXT_ZH: Record<string, { title: string; caption: string }> = {
  calibration: {
    title: '校准：无参考答案时对正确（C1）与错误（C2）答案的接受率',
    caption:
      '按评审模型和语言，在两个判断都有效的问题上统计。C1：把正确答案当作生成的答案；C2：同一语言中另一道题的正确答案，且与本题毫无共同之处。' +
      'Wilson 95% 置信区间；CGP = C1 − C2，附 Newcombe 配对差 95% 置信区间（方法 10）。',
  },
  acceptance: {
    title: '各设置的接受率',
    caption:
      '被判为 CORRECT 的生成答案所占比例：NR 无参考答案，RV 可见参考答案，RC 可见参考答案并要求比较。生成模型 “all” 汇总全部生成模型（有两个及以上生成模型时显示）。Wilson 95% 置信区间。',
  },
  flips: {
    title: '不同设置之间的判定翻转',
    caption:
      '配对（同一答案在两种设置下都被评判且都有效）。翻转率附 Wilson 95% 置信区间；C→I 与 I→C 按方向计数翻转；McNemar：C→I 对 I→C 的精确双侧检验，以问题为单位（按条目聚类，条目内符号翻转）；抽取变化：归一化后抽取答案不同的配对所占比例。',
  },
  string_baseline: {
    title: '字符串基线：与正确答案的完全匹配和词元 F1',
    caption: '按 SQuAD/TyDi QA 归一化；取每道题各正确答案中的最佳值，再求平均。',
  },
  em_agreement: {
    title: '判断与完全匹配的一致性',
    caption: '有效判断中 CORRECT 与完全匹配同时出现（INCORRECT 与不匹配同时出现）的比例。',
  },
  human: {
    title: '判断与人工标签对比',
    caption:
      '各设置的判断相对于导入的人工标签的准确率（Wilson 95% 置信区间）和 Cohen κ（95% 置信区间，Fleiss、Cohen 与 Everitt 的大样本标准误，截取到 κ 的取值范围 [−1, 1]）。一方恒定时 κ 的方差为 0，置信区间无定义。',
  },
  noise_floor: {
    title: '噪声底线：超出重复翻转的参考答案翻转',
    caption:
      '每个 NR 判决原样再问一次（同一提示）：NR-NR 是什么都没变时评审改变 CORRECT/INCORRECT 判决的频率（Wilson 95% 置信区间）。' +
      'NR-RV 与 NR-RC 行在三个判决都有效的回答上，把翻转率与重复翻转率对比（Wilson 95% 置信区间）；' +
      '超出 = 翻转率 − 重复翻转率，附 Newcombe 配对差 95% 置信区间（方法 10，基于“因参考答案翻转 × 因重复翻转”的配对 2×2 表）。' +
      'McNemar：仅因参考答案翻转对仅因重复翻转的精确双侧检验，以问题为单位（按条目聚类）；Holm：在单个生成模型的 NR-RV 与 NR-RC 行之间校正' +
      '（所有评审模型、生成模型与语言：每个检验一次）。生成模型 “all” 汇总各生成模型，是该检验族之外的汇总行，没有 Holm p。',
  },
  usage: USAGE_TABLE_ZH,
};

const HEADERS_ZH: Record<string, string> = {
  ...COMMON_HEADERS_ZH,
  language: '语言',
  c1_accept: 'C1 接受',
  c1_accept_ci: 'C1 95% 置信区间',
  c2_accept: 'C2 接受',
  c2_accept_ci: 'C2 95% 置信区间',
  cgp_ci: 'CGP 95% 置信区间',
  generator: '生成模型',
  setting: '设置',
  accept_rate: '接受',
  accept_rate_ci: '95% 置信区间',
  transition: '转换',
  flip_rate: '翻转率',
  flip_rate_ci: '95% 置信区间',
  extraction_change_rate: '抽取变化',
  token_f1: '词元 F1',
  em_agreement: '与 EM 一致',
  accuracy: '准确率',
  accuracy_ci: '95% 置信区间',
  kappa_ci: 'κ 95% 置信区间',
  repeat_flip_rate: '重复翻转',
  repeat_flip_rate_ci: '95% 置信区间',
  excess_flip_rate: '超出',
  excess_flip_rate_ci: '95% 置信区间',
  both_flipped: '两者都翻转',
  change_only: '仅参考答案',
  repeat_only: '仅重复',
  mcnemar_p: 'McNemar p',
  mcnemar_p_holm: 'Holm p',
};

const CELLS_ZH: Record<string, Record<string, string>> = {
  kappa_ci: {
    'undefined (one side constant)': '无定义（一方恒定）',
    'undefined (variance 0)': '无定义（方差为 0）',
  },
  role: { judge: '评审模型', generator: '生成模型' },
  generator: { all: '全部' },
  transition: { 'NR-NR (repeat)': 'NR-NR（重复）' },
};

/** A table's words on screen in `lang`; English is the table as the export writes it. */
export function refSensTableText(table: Table, lang: string): TableText {
  const zh = TEXT_ZH[table.id];
  return screenTableText(table, lang, () =>
    zh
      ? {
          ...zh,
          headers: HEADERS_ZH,
          cell: (c, text) => CELLS_ZH[c.key]?.[text] ?? undefinedTextZh(text),
        }
      : null,
  );
}
