// Bias probes' Methods sentences (issue 24): the design and each probe's mean paired difference,
// taken from the metrics the tables show (probes, category "all").
import { methodsRate as rate, type MethodsSection, designSection } from '../../../shared/paper/methods';
import type { BiasMetrics } from '../../../shared/protocols/bias-probes/types';
import type { MethodsHookContext } from '../plugin';
import type { BiasExperiment } from './experiment';
import { selectedProbes } from '../../../shared/protocols/bias-probes/probe-registry';

export function biasMethods({
  exp,
  metrics,
  lang,
}: MethodsHookContext<BiasExperiment, BiasMetrics>): MethodsSection[] {
  const zh = lang === 'zh';
  const rows = metrics.probes
    .filter((p) => p.category === 'all')
    .map((p) =>
      zh
        ? `${p.judge}，${p.effect}：平均配对差 ${rate(p.mean, lang)}（n = ${p.n}）`
        : `${p.judge}, ${p.effect}: mean paired difference ${rate(p.mean, lang)} (n = ${p.n})`,
    );
  const mode = metrics.mode;
  // What each probe of the run perturbs, in its own words (the built-in ones are in the design).
  const perturbs = selectedProbes(exp.options).flatMap((p) =>
    p.texts.methods ? [p.texts.methods[lang]] : [],
  );
  const edits = metrics.hand_edits;
  const edited = edits
    ? [
        zh
          ? `经人工编辑：${edits.rewrites} 个改写、${edits.paraphrases} 个评审说明改写版本；人工文本重新审核，用到旧文本的评审调用按新文本重新提问（旧回答保留在账本中）。`
          : `Edited by hand: ${edits.rewrites} ${edits.rewrites === 1 ? 'rewrite' : 'rewrites'} and ${edits.paraphrases} ${edits.paraphrases === 1 ? 'paraphrase' : 'paraphrases'} of the judging instructions; the edited texts were audited again and the judge calls that had used the old texts were asked again on the new ones (the old answers are kept in the ledger).`,
      ]
    : [];
  return [
    designSection(
      'bias-probes.design',
      { en: 'Design (bias probes)', zh: '设计（偏差探针）' },
      {
        en: `A rewriter model made controlled rewrites of the responses (longer, shorter, with Markdown); the judges rated the original and the rewritten version ${mode === 'pairwise' ? 'pairwise' : 'pointwise'}. An effect is the paired difference of an item's verdict after and before the rewrite (n = valid pairs).`,
        zh: `改写模型对回答做受控改写（更长、更短、加 Markdown），评审模型以 ${mode === 'pairwise' ? '成对' : '逐点'} 方式评价原文与改写版本；效应为同一条目改写后与改写前评价的配对差（n = 有效配对数）。`,
      },
      lang,
      rows,
      ...(perturbs.length ? [perturbs] : []),
      ...(edited.length ? [edited] : []),
    ),
  ];
}
