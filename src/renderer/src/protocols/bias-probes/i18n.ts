import { i18next } from '../host';
import { EFFECTS_ZH } from '../../../../shared/protocols/bias-probes/report/figure-zh';
import { allEffects, biasProbes } from '../../../../shared/protocols/bias-probes/probe-registry';

export const BIAS_NS = 'bias-probes';
export const BIAS_NAMESPACES = [BIAS_NS, 'results', 'translation'];

/** Each probe's words for choosing it in the wizard (its module's), by probe id. */
const probeChoices = (lang: 'en' | 'zh') =>
  Object.fromEntries(biasProbes().map((p) => [p.id, (p.texts.choice ?? p.texts.name)[lang]]));

/** Each effect's label per mode (its probe module's), as `results.effects.<mode>.<effect>`. */
function effectWords(lang: 'en' | 'zh') {
  const effects = allEffects().map((e) => e.effect);
  return {
    pointwise: Object.fromEntries(effects.map((e) => [e.id, e.label.pointwise[lang]])),
    pairwise: Object.fromEntries(
      effects.flatMap((e) => (e.label.pairwise ? [[e.id, e.label.pairwise[lang]]] : [])),
    ),
  };
}

const en = {
  power: {
    pairedDifference: 'Paired score difference, {{effect}} (per judge)',
    positionLean: 'Position lean: both orders first vs both second (per judge)',
  },
  estimateRoles: { rewriter: 'Rewriter' },
  // The estimate's kinds of call (the variant judged; pair-shown: the position probe).
  estimateKinds: {
    original: 'Original',
    longer: 'Longer',
    shorter: 'Shorter',
    markdown: 'Markdown',
    plain: 'Plain',
    'pair-shown': 'Position probe',
    repeat: 'Repeat (noise floor)',
  },
  estimateNote: {
    standIns:
      'Judge calls on variants not rewritten yet are estimated from stand-in texts of the target length; every shorter rewrite is assumed to exist.',
  },
  protocol: {
    title: 'Bias probes',
    description:
      'How much do scores move when the content does not? Each response is judged as given and in controlled variants: the answers swapped (position), longer or shorter (length), as Markdown or plain prose (format).',
  },
  wizard: {
    steps: { probes: 'Probes' },
    probeChoices: probeChoices('en'),
    probes: {
      title: 'What to probe',
      intro:
        'A rewriter model makes the longer, shorter and Markdown variants (audited: numbers kept, length inside the band); the plain variant strips Markdown with a parser.',
      mode: 'Judging mode',
      pointwise: 'Pointwise: a score per response',
      pairwise: 'Pairwise: which of two responses is better',
      scale: 'Score scale',
      rubric: 'Rubric (optional)',
      rubricHint:
        'Replaces the default: follows the instruction, correct and helpful; length and formatting are no merit.',
      probes: 'Probes',
      band: 'Longer variant: word-count ratio band',
      bandLow: 'from',
      bandHigh: 'to',
      provider: 'Rewriter provider',
      model: 'Rewriter model',
      paraphrases: 'Paraphrases of the judging instructions',
      paraphrasesHint:
        'How many paraphrases the rewriter makes (1 to 5, default 3); each item is judged under one of them, in turn.',
      optionsOf: 'Options of the {{probe}} probe',
      noiseFloor: 'Measure the noise floor',
      noiseFloorText:
        'Score the unchanged side of every effect a second time (a placebo: the original, the plain text, and the response shown second with the pair in view; pairwise: the original and the plain pair in both orders). The results then show how much a judge’s score moves when nothing changes, beside every probe’s effect: how many repeated scores changed, and whether the probe changes scores more often and by more than the repeat on the same items. Adds one call per judge, response and repeated text (pairwise: per judge, item, order and repeated pair).',
    },
    errors: {
      probesRequired: 'Choose at least one probe.',
      modelRequired: 'Choose a rewriter model.',
      bandInvalid: 'The band must lie above 1, low below high (e.g. 1.3 to 1.7).',
      paraphrasesInvalid: 'A whole number of paraphrases from {{min}} to {{max}}.',
      optionInvalid: 'Not a value this option takes: {{message}}',
      positionNeedsPairs:
        'The position probe swaps two responses, and this dataset has one response per item: turn the position probe off, or choose a dataset with two responses per item (pairwise).',
      pairwiseNeedsPairs:
        'Pairwise judging compares two responses, and this dataset has one response per item: choose pointwise, or a dataset with two responses per item (pairwise).',
    },
    summary: {
      mode: 'Judging mode',
      scale: 'Score scale',
      probes: 'Probes',
      band: 'Longer variant band',
      rewriter: 'Rewriter',
      noRewriter: 'none (the position probe needs none)',
      rubric: 'Rubric',
      defaultRubric: 'the default',
      customRubric: 'your own ({{count}} characters)',
      noiseFloor: 'Noise floor',
      on: 'measured (each unchanged side scored twice)',
      off: 'not measured',
      none: 'none',
    },
  },
  results: {
    profileTitle: 'Bias profile — {{judge}}',
    profileHint: 'One row per probe: mean paired difference with its 95% CI; filled red = Holm p < 0.05.',
    placeboHint:
      'Grey diamonds: the noise floor, each effect’s unchanged side scored twice (repeat − first, t 95% CI). Whether an effect clears it: the noise-floor table, where each effect is compared with its own repeat on the same items (changed vs unchanged by exact McNemar, absolute change by Wilcoxon).',
    histograms: 'Paired differences',
    histogram: 'Paired differences: {{effect}}',
    effects: effectWords('en'),
    scatter: 'Length and score of the original responses',
    browser: {
      title: 'Variant browser',
      intro:
        'Each rewrite beside the text it was made from, and each prompt change beside the prompt it is compared with, with every judge’s answer on both.',
      flaggedOnly: 'Flagged only',
      variant: 'Variant',
      all: 'All',
      longer: 'Longer',
      shorter: 'Shorter',
      markdown: 'Markdown',
      none: 'No variants yet.',
      original: 'Original',
      plain: 'Plain (Markdown stripped)',
      rewritten: 'Variant',
      diff: 'Changes (removed struck through, added underlined)',
      judge: 'Judge',
      order: 'Order',
      before: 'On the original',
      after: 'On the variant',
      repeat: 'On the unchanged text, asked again (noise floor)',
      repeatChanged: 'changed on repeat as well',
      repeatSame: 'same on repeat',
      ratio: 'Length ratio {{ratio}}',
      flagged: 'Flagged: {{reasons}}',
      loading: 'Loading variants…',
      instructionsTitle: 'Judging instructions: the original and its paraphrases',
      instructionsIntro:
        'Each item was judged under one paraphrase (round-robin over the items) and under the original. Per judge, the share of verdicts each paraphrase changed.',
      instructionsOriginal: 'Original instructions',
      paraphrase: 'Paraphrase {{n}}',
      paraphraseFailed: 'The rewriter gave no paraphrase.',
      paraphraseChanged: '{{judge}}: {{changed}} of {{n}} verdicts changed',
      paraphraseFlips: ', {{flips}} flipped to the worse response',
      edit: 'Edit text',
      editText: 'Text (replaces the rewriter’s; audited again)',
      editedBy: 'Edited by',
      editedByHint: 'Your name or initials: recorded with the edit, its time and the text it replaced.',
      save: 'Save edit',
      saving: 'Saving…',
      cancel: 'Cancel',
      saveFailed: 'The edit was not saved',
      saved:
        'Saved. {{count}} judge calls showed the old text and are planned again on the new one (their old answers stay in the ledger); run the experiment to ask them.',
      editedNote: 'edited by hand by {{by}} ({{at}})',
      promptIn: 'The judge’s prompt: {{condition}}',
      promptHint:
        'This condition changes what the judge is told, not the response: its prompt beside the one it is compared with (pairwise: as asked in the original order).',
      derivedHint:
        'This text is made by code from the original (no model call, so no audit): shown beside the text it is compared with.',
    },
  },
};

const zh = {
  power: {
    pairedDifference: '配对分数差，{{effect}}（每个评审模型）',
    positionLean: '位置偏向：两种顺序都选第一位对都选第二位（每个评审模型）',
  },
  estimateRoles: { rewriter: '改写模型' },
  estimateKinds: {
    original: '原文',
    longer: '加长',
    shorter: '缩短',
    markdown: 'Markdown',
    plain: '纯文本',
    'pair-shown': '位置探针',
    repeat: '重复作答（噪声底线）',
  },
  estimateNote: {
    standIns: '尚未改写的变体上的评审调用按目标长度的替代文本估算；假定每个缩短的改写都存在。',
  },
  protocol: {
    title: '偏差探针',
    description:
      '内容不变时，评分会变动多少？每个回答按原样评判，也在受控变体中评判：交换顺序（位置）、加长或缩短（长度）、Markdown 或纯文本（格式）。',
  },
  wizard: {
    steps: { probes: '探针' },
    probeChoices: probeChoices('zh'),
    probes: {
      title: '探测什么',
      intro:
        '改写模型生成加长、缩短和 Markdown 变体（经审核：保留数字、长度在区间内）；纯文本变体由解析器去除 Markdown 得到。',
      mode: '评判方式',
      pointwise: '单项评分：每个回答一个分数',
      pairwise: '成对比较：两个回答中哪个更好',
      scale: '评分量表',
      rubric: '评分标准（可选）',
      rubricHint: '替换默认标准：是否遵循指令、正确且有帮助；长度与格式本身不算优点。',
      probes: '探针',
      band: '加长变体：词数比例区间',
      bandLow: '从',
      bandHigh: '到',
      provider: '改写模型的服务商',
      model: '改写模型',
      paraphrases: '评审说明的改写版本数',
      paraphrasesHint: '改写模型生成的改写版本数（1 到 5，默认 3）；每个条目轮流在其中一个版本下评审。',
      optionsOf: '{{probe}}探针的选项',
      noiseFloor: '测量噪声底线',
      noiseFloorText:
        '把每个效应未改动的一侧再评一次（安慰剂：原文、纯文本，以及成对展示时后展示的回答；成对比较：原始回答对与纯文本回答对的两种顺序）。结果会在每个探针效应旁显示：什么都没变时评分变动多少、重复时改变了多少个评分，以及在同样的条目上探针是否比重复更常、更大幅度地改变评分。每个评审、回答和重复的文本多一次调用（成对比较：每个评审、条目、顺序和重复的回答对）。',
    },
    errors: {
      probesRequired: '请至少选择一个探针。',
      modelRequired: '请选择改写模型。',
      bandInvalid: '区间须大于 1，且下限小于上限（例如 1.3 到 1.7）。',
      paraphrasesInvalid: '改写版本数须为 {{min}} 到 {{max}} 之间的整数。',
      optionInvalid: '此选项不接受该值：{{message}}',
      positionNeedsPairs:
        '位置探针要交换两个回答，而这个数据集每个条目只有一个回答：请关闭位置探针，或选择每个条目有两个回答的数据集（成对）。',
      pairwiseNeedsPairs:
        '成对评审要比较两个回答，而这个数据集每个条目只有一个回答：请选择单项评分，或选择每个条目有两个回答的数据集（成对）。',
    },
    summary: {
      mode: '评审方式',
      scale: '评分刻度',
      probes: '探针',
      band: '加长版的长度区间',
      rewriter: '改写模型',
      noRewriter: '无（位置探针不需要）',
      rubric: '评分标准',
      defaultRubric: '默认',
      customRubric: '自定义（{{count}} 个字符）',
      noiseFloor: '噪声底线',
      on: '测量（每个未改动的一侧评两次）',
      off: '不测量',
      none: '无',
    },
  },
  results: {
    profileTitle: '偏差概况 — {{judge}}',
    profileHint: '每个探针一行：配对差的均值及 95% 置信区间；红色实心 = Holm 校正后 p < 0.05。',
    placeboHint:
      '灰色菱形：噪声底线，即每个效应未改动的一侧评两次的差（重复 − 首次，t 分布 95% 置信区间）。效应是否超出噪声见噪声底线表：每个效应与它自己的重复在同样的条目上比较（改变与否用精确 McNemar 检验，绝对变化用 Wilcoxon 检验）。',
    histograms: '配对差分布',
    histogram: '配对差分布：{{effect}}',
    effects: effectWords('zh'),
    scatter: '原始回答的长度与评分',
    browser: {
      title: '变体浏览',
      intro: '每个改写与其来源文本并排显示，每个提示改动与其对照提示并排显示，并附上各评审模型对两者的评判。',
      flaggedOnly: '仅显示被标记的',
      variant: '变体',
      all: '全部',
      longer: '加长',
      shorter: '缩短',
      markdown: 'Markdown',
      none: '尚无变体。',
      original: '原文',
      plain: '纯文本（已去除 Markdown）',
      rewritten: '变体',
      diff: '改动（删除的加删除线，新增的加下划线）',
      judge: '评审模型',
      order: '顺序',
      before: '对原文',
      after: '对变体',
      repeat: '对未改动的文本再问一次（噪声底线）',
      repeatChanged: '重复提问时也改变',
      repeatSame: '重复提问时相同',
      ratio: '长度比 {{ratio}}',
      flagged: '已标记：{{reasons}}',
      loading: '正在加载变体…',
      instructionsTitle: '评审说明：原文及其改写',
      instructionsIntro:
        '每个条目在一个改写版本（按条目轮流分配）和原文下各评审一次。下列为各评审模型在每个改写下改变的判决比例。',
      instructionsOriginal: '原评审说明',
      paraphrase: '改写 {{n}}',
      paraphraseFailed: '改写模型未给出改写。',
      paraphraseChanged: '{{judge}}：{{n}} 个判决中 {{changed}} 个改变',
      paraphraseFlips: '，其中 {{flips}} 个翻转为较差回答',
      edit: '编辑文本',
      editText: '文本（替换改写模型的文本；重新审核）',
      editedBy: '编辑者',
      editedByHint: '您的姓名或缩写：与编辑时间和被替换的文本一同记录。',
      save: '保存编辑',
      saving: '正在保存…',
      cancel: '取消',
      saveFailed: '编辑未保存',
      saved:
        '已保存。{{count}} 次评审调用用过旧文本，已按新文本重新计划（旧回答保留在账本中）；运行实验即可提问。',
      editedNote: '由 {{by}} 人工编辑（{{at}}）',
      promptIn: '评审看到的提示：{{condition}}',
      promptHint:
        '这个条件改变的是告诉评审的内容，而不是回答：它的提示与对照条件的提示并排显示（成对评判：按原顺序提问时的提示）。',
      derivedHint: '这段文本由代码从原文生成（不调用模型，因此不做审核）：与对照文本并排显示。',
    },
  },
};

export const biasResources = { en, zh };

for (const [lng, res] of Object.entries(biasResources)) {
  i18next.addResourceBundle(lng, BIAS_NS, res, true, true);
}

// The verdict browser (generic, namespace 'verdicts') lists the bias profile's pairs with fields
// and values of this protocol: its words are added to that namespace from here.
const UNITS = {
  en: { output_1: 'output 1', output_2: 'output 2', orig: 'original order', swap: 'swapped order' },
  zh: { output_1: '回答 1', output_2: '回答 2', orig: '原顺序', swap: '交换顺序' },
};
for (const lng of ['en', 'zh'] as const)
  i18next.addResourceBundle(
    lng,
    'verdicts',
    {
      fields:
        lng === 'en'
          ? { category: 'Category', effect: 'Effect', unit: 'Response or order' }
          : { category: '类别', effect: '效应', unit: '回答或顺序' },
      values: {
        ...Object.fromEntries(EFFECTS_ZH.map(([e, z]) => [e, lng === 'en' ? e : z])),
        ...UNITS[lng],
      },
    },
    true,
    true,
  );
