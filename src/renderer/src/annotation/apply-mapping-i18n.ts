// Strings of the "Apply mapping" panel, merged into the 'annotation' namespace (kept apart from
// i18n.ts so the panel's strings travel with it).
import { i18next } from '../i18n';

const en = {
  applyMapping: {
    title: 'Apply the mapping to another experiment',
    intro:
      'Calibrate another experiment’s scores of the same judge. Only experiments with the same protocol, judge model, prompt templates and rating scale are offered.',
    judge: 'Judge',
    target: 'Target experiment',
    targetJudge: 'Judge in the target',
    noTargets: 'No experiment can take this mapping yet.',
    excluded_one: '{{count}} experiment is not offered, and why',
    excluded_other: '{{count}} experiments are not offered, and why',
    and: '; ',
    why: {
      protocol: 'another protocol ({{theirs}}; the mapping is from {{ours}})',
      model: 'its judge is another model ({{theirs}}; the mapping’s judge is {{ours}})',
      rubric: 'its prompt templates (the rubric) differ from the rated run’s',
      scale: 'another rating scale ({{theirs}}; the mapping’s is {{ours}})',
      no_judge: 'it has no judge of this model',
      unreadable: 'its config cannot be read ({{detail}})',
    },
    undefined: 'undefined',
    belowFloor:
      'This mapping’s held-out ρ is {{rho}}, below the floor of {{floor}}: on items it was not fitted to, it ranks them little or not at all as people do, so applying it would flatten or reverse the scores rather than calibrate them. Rate more items, or apply it only if you know why.',
    insist: 'Apply it anyway',
    forced:
      'Applied below the floor (held-out ρ {{rho}}): {{flattened}} of {{count}} scores share a calibrated value with a different raw score.',
    apply: 'Apply mapping',
    applying: 'Applying…',
    done: 'Calibrated {{count}} scores with the {{category}} mapping (mapping {{id}}).',
    shown: 'The first {{shown}} of {{count}}:',
    item: 'Item',
    category: 'Category',
    raw: 'Raw',
    calibrated: 'Calibrated',
    linear: 'Linear',
    perCategory: 'per-category',
    all: 'overall',
  },
};

const zh: typeof en = {
  applyMapping: {
    title: '把映射应用到另一个实验',
    intro: '校准另一个实验中同一评审模型的分数。只列出协议、评审模型、提示模板和评分量表都相同的实验。',
    judge: '评审模型',
    target: '目标实验',
    targetJudge: '目标中的评审模型',
    noTargets: '还没有能应用此映射的实验。',
    excluded_one: '{{count}} 个实验未列出及原因',
    excluded_other: '{{count}} 个实验未列出及原因',
    and: '；',
    why: {
      protocol: '协议不同（{{theirs}}；映射来自 {{ours}}）',
      model: '其评审是另一个模型（{{theirs}}；映射的评审是 {{ours}}）',
      rubric: '其提示模板（评分标准）与已评实验不同',
      scale: '评分量表不同（{{theirs}}；映射的是 {{ours}}）',
      no_judge: '没有使用此模型的评审',
      unreadable: '无法读取其配置（{{detail}}）',
    },
    undefined: '无定义',
    belowFloor:
      '此映射的留出 ρ 为 {{rho}}，低于下限 {{floor}}：在未参与拟合的条目上，它的排序与人几乎无关甚至相反，应用它会把分数压平或颠倒，而不是校准。请多评一些条目；只有清楚原因时才应用。',
    insist: '仍然应用',
    forced:
      '已在下限以下应用（留出 ρ {{rho}}）：{{count}} 个分数中有 {{flattened}} 个与另一个原始分数得到相同的校准值。',
    apply: '应用映射',
    applying: '应用中…',
    done: '已用{{category}}映射（映射 {{id}}）校准 {{count}} 个分数。',
    shown: '{{count}} 个中的前 {{shown}} 个：',
    item: '条目',
    category: '类别',
    raw: '原始',
    calibrated: '校准后',
    linear: '线性',
    perCategory: '分类别',
    all: '整体',
  },
};

i18next.addResourceBundle('en', 'annotation', en, true, true);
i18next.addResourceBundle('zh', 'annotation', zh, true, true);
