import { i18next } from '../host';

export const REF_SENS_NS = 'reference-sensitivity';
export const REF_SENS_NAMESPACES = [REF_SENS_NS, 'results', 'translation'];

const en = {
  power: {
    calibrationGap: 'Calibration gap C1 − C2 (per judge)',
    nrRvFlips: 'NR→RV flips: correct→incorrect vs incorrect→correct (per judge)',
  },
  // The estimate's kinds of call; C1, C2, NR, RV and RC are the settings' names and stay so.
  estimateKinds: { generate: 'Answer', repeat: 'NR repeat (noise floor)' },
  estimateNote: {
    standIns:
      'Verdicts on answers not generated yet are estimated from stand-in answers of typical length; output lengths are typical values.',
  },
  protocol: {
    title: 'Reference sensitivity',
    description:
      'Are judges over-generous without a reference answer? Calibration with gold and wrong answers, then each answer graded with no reference, with the reference shown, and told to compare.',
  },
  wizard: {
    steps: { generators: 'Answers' },
    generators: {
      title: 'Who answers the questions',
      intro:
        'A generator model answers every question in its language (plain text); the judges then grade each answer.',
      provider: 'Generator provider',
      model: 'Generator model',
      label: 'Label (tables and figures)',
      add: 'Add a generator',
      remove: 'Remove this generator',
      parts: 'Parts to run',
      calibration: 'Calibration (gold C1 and wrong C2 answers, no reference)',
      sensitivity: 'Sensitivity (generated answers graded in each setting)',
      settings: 'Settings',
      NR: 'NR: no reference',
      RV: 'RV: reference shown',
      RC: 'RC: reference shown, compare first',
      seed: 'Seed (picks the wrong answers for C2)',
      noiseFloor: 'Measure the noise floor',
      noiseFloorText:
        'Ask every NR verdict a second time, unchanged (a placebo). The results then show how often a judge changes its verdict when nothing changes (NR-NR), beside the NR-RV and NR-RC flip rates. Adds one call per answer and judge.',
      noiseFloorNeedsNR: 'Needs the sensitivity part with the NR setting: the placebo repeats NR verdicts.',
    },
    errors: {
      modelRequired: 'Choose a model.',
      partsRequired: 'Choose calibration, sensitivity or both.',
      generatorRequired: 'Sensitivity needs a generator or an answers file.',
      labelTaken: 'Another generator has this label.',
      labelTakenByJudge:
        'A judge is already called “{{label}}”: give this generator another label (or another model), so the tables can tell them apart.',
    },
    summary: {
      generators: 'Generators',
      parts: 'Parts',
      settings: 'Settings',
      noiseFloor: 'Noise floor',
      seed: 'Seed',
      answersFile: 'Answers file',
      none: 'none',
      on: 'on',
      off: 'off',
    },
    answers: {
      label: 'Answers you already have (optional)',
      hint: 'A JSONL, JSON or CSV file of item_id, generator, answer and optionally human_label (CORRECT or INCORRECT): judged beside the generated answers.',
      remove: 'Remove',
      tooBig: 'The file is larger than 50 MB.',
    },
    prompts: {
      title: 'Prompt templates',
      intro:
        'Edit any template; the preview shows the prompts the run would send for the first question of the dataset.',
      generateSystem: 'Generator: system',
      generateUser: 'Generator: user (question)',
      judgeSystem: 'Judge: system (calibration and every setting)',
      judgeUserNR: 'Judge NR and calibration: user (question, answer)',
      judgeUserRV: 'Judge RV: user (question, answer, reference)',
      judgeUserRC: 'Judge RC: user (question, answer, reference)',
      default: 'The default template.',
      custom: 'Edited.',
      reset: 'Back to the default',
      preview: 'Preview',
      previewLoading: 'Rendering…',
      previewFailed: 'No preview:',
      previewItem: 'For question {{id}}',
      previewLabels: {
        generator: 'Generator {{generator}} ({{language}})',
        c1: 'Calibration C1 (gold answer, no reference)',
        c2: 'Calibration C2 (wrong answer from {{from}}, no reference)',
        judge: 'Judge {{setting}} (gold answer shown as the answer)',
      },
      system: 'System',
      user: 'User',
    },
  },
  results: {
    calibration: 'Calibration: C1 and C2 acceptance (CGP = C1 − C2)',
    acceptance_heatmap: 'Acceptance by setting and language',
    flips: 'Decision flips by direction',
  },
  browseFlips: 'Browse flips',
  flips: {
    title: 'Flip browser',
    intro:
      'Answers whose verdict changes between settings. Open one to see the texts, each verdict and the explanations side by side.',
    toResults: 'Results',
    loadFailed: 'Could not load the answers',
    loading: 'Loading…',
    filters: 'Filters',
    any: 'Any',
    judge: 'Judge',
    language: 'Language',
    generator: 'Generator',
    transition: 'Between',
    direction: 'Direction',
    change: { correct_to_incorrect: 'CORRECT → INCORRECT', incorrect_to_correct: 'INCORRECT → CORRECT' },
    all: 'Every answer, not only flips',
    count: '{{shown, number}} of {{total, number}} answers',
    col: { item: 'Item', judge: 'Judge', generator: 'Generator', language: 'Lang.', question: 'Question' },
    back: 'Back to the list',
    human: 'Human label: {{label}}',
    texts: 'Question and answers',
    question: 'Question',
    gold: 'Gold answers',
    answer: 'Generated answer',
    setting: { NR: 'NR: no reference', RV: 'RV: reference shown', RC: 'RC: told to compare' },
    notJudged: 'not judged',
    failed: 'no valid verdict',
    extracted: 'Extracted answer',
    explanation: 'Explanation',
    onlyIn: 'only in {{setting}}',
    repeatCol: 'NR repeat',
    repeatFlipped: 'flipped on repeat as well',
    repeatSame: 'same',
    repeatFlippedHelp:
      'NR, asked again unchanged, gave the other verdict too: a flip from NR may be the judge’s own noise.',
  },
};

const zh = {
  power: {
    calibrationGap: '校准差距 C1 − C2（每个评审模型）',
    nrRvFlips: 'NR→RV 翻转：对→错 与 错→对（每个评审模型）',
  },
  estimateKinds: { generate: '生成回答', repeat: 'NR 重复提问（噪声底线）' },
  estimateNote: {
    standIns: '尚未生成的回答上的评审按典型长度的替代回答估算；输出长度取典型值。',
  },
  protocol: {
    title: '参考答案敏感性',
    description:
      '没有参考答案时，评审模型是否过于宽松？先用正确与错误答案校准，再在无参考、显示参考、要求比对三种设置下评判每个回答。',
  },
  wizard: {
    steps: { generators: '回答' },
    generators: {
      title: '由谁回答问题',
      intro: '生成模型用问题的语言回答每个问题（纯文本），评审模型再评判每个回答。',
      provider: '生成模型的服务商',
      model: '生成模型',
      label: '标签（表格与图中显示）',
      add: '添加生成模型',
      remove: '移除此生成模型',
      parts: '运行的部分',
      calibration: '校准（正确答案 C1 与错误答案 C2，无参考）',
      sensitivity: '敏感性（在各设置下评判生成的回答）',
      settings: '设置',
      NR: 'NR：无参考',
      RV: 'RV：显示参考',
      RC: 'RC：显示参考并要求比对',
      seed: '随机种子（选取 C2 的错误答案）',
      noiseFloor: '测量噪声底线',
      noiseFloorText:
        '把每个 NR 判决原样再问一次（安慰剂）。结果会在 NR-RV 与 NR-RC 翻转率旁显示：什么都没变时评审改变判决的频率（NR-NR）。每个回答和评审多一次调用。',
      noiseFloorNeedsNR: '需要运行敏感性部分并选中 NR 设置：安慰剂重复的是 NR 判决。',
    },
    errors: {
      modelRequired: '请选择模型。',
      partsRequired: '请选择校准、敏感性或两者。',
      generatorRequired: '敏感性需要生成模型或回答文件。',
      labelTaken: '另一个生成模型已使用此标签。',
      labelTakenByJudge:
        '已有评审名为“{{label}}”：请给这个生成模型换一个标签（或换一个模型），以便表格区分二者。',
    },
    summary: {
      generators: '生成模型',
      parts: '部分',
      settings: '设置',
      noiseFloor: '噪声底线',
      seed: '随机种子',
      answersFile: '回答文件',
      none: '无',
      on: '开',
      off: '关',
    },
    answers: {
      label: '已有的回答（可选）',
      hint: 'JSONL、JSON 或 CSV 文件，含 item_id、generator、answer，可选 human_label（CORRECT 或 INCORRECT）：与生成的回答一同评判。',
      remove: '移除',
      tooBig: '文件大于 50 MB。',
    },
    prompts: {
      title: '提示模板',
      intro: '可编辑任一模板；预览显示运行时对数据集第一个问题发送的提示。',
      generateSystem: '生成模型：系统',
      generateUser: '生成模型：用户（question）',
      judgeSystem: '评审模型：系统（校准与各设置）',
      judgeUserNR: '评审 NR 与校准：用户（question、answer）',
      judgeUserRV: '评审 RV：用户（question、answer、reference）',
      judgeUserRC: '评审 RC：用户（question、answer、reference）',
      default: '默认模板。',
      custom: '已编辑。',
      reset: '恢复默认',
      preview: '预览',
      previewLoading: '渲染中…',
      previewFailed: '无法预览：',
      previewItem: '问题 {{id}}',
      previewLabels: {
        generator: '生成模型 {{generator}}（{{language}}）',
        c1: '校准 C1（标准答案，无参考）',
        c2: '校准 C2（来自 {{from}} 的错误答案，无参考）',
        judge: '评审 {{setting}}（以标准答案作为回答）',
      },
      system: '系统',
      user: '用户',
    },
  },
  results: {
    calibration: '校准：C1 与 C2 接受率（CGP = C1 − C2）',
    acceptance_heatmap: '按设置与语言的接受率',
    flips: '按方向的判决翻转',
  },
  browseFlips: '浏览翻转',
  flips: {
    title: '翻转浏览',
    intro: '在不同设置之间判决发生变化的回答。打开一条，可并排查看文本、各设置的判决与解释。',
    toResults: '结果',
    loadFailed: '无法加载回答',
    loading: '加载中…',
    filters: '筛选',
    any: '全部',
    judge: '评审模型',
    language: '语言',
    generator: '生成模型',
    transition: '设置之间',
    direction: '方向',
    change: { correct_to_incorrect: 'CORRECT → INCORRECT', incorrect_to_correct: 'INCORRECT → CORRECT' },
    all: '所有回答，不只是翻转',
    count: '{{total, number}} 条回答中的 {{shown, number}} 条',
    col: { item: '条目', judge: '评审模型', generator: '生成模型', language: '语言', question: '问题' },
    back: '返回列表',
    human: '人工标注：{{label}}',
    texts: '问题与回答',
    question: '问题',
    gold: '标准答案',
    answer: '生成的回答',
    setting: { NR: 'NR：无参考', RV: 'RV：显示参考', RC: 'RC：要求比对' },
    notJudged: '未评判',
    failed: '无有效判决',
    extracted: '提取的答案',
    explanation: '解释',
    onlyIn: '仅在 {{setting}} 中',
    repeatCol: 'NR 重复',
    repeatFlipped: '重复提问时也翻转',
    repeatSame: '相同',
    repeatFlippedHelp: '原样再问一次的 NR 判决也给出了另一结论：从 NR 出发的翻转可能只是评审自身的噪声。',
  },
};

export const refSensResources = { en, zh };

for (const [lng, res] of Object.entries(refSensResources)) {
  i18next.addResourceBundle(lng, REF_SENS_NS, res, true, true);
}

// The verdict browser (generic, namespace 'verdicts') lists this protocol's single verdicts and
// pairs of verdicts by kind: its words are added to that namespace from here.
const VERDICT_WORDS = {
  en: {
    values: {
      answer: 'verdict on an answer',
      calibration: 'calibration (C1 against C2)',
      settings_pair: 'pair of settings',
      noise_floor: 'noise floor (NR against its repeat)',
      'NR-NR (repeat)': 'NR-NR (repeat)',
    },
  },
  zh: {
    values: {
      answer: '对回答的判决',
      calibration: '校准（C1 对 C2）',
      settings_pair: '两种设置的配对',
      noise_floor: '噪声底线（NR 对其重复）',
      'NR-NR (repeat)': 'NR-NR（重复）',
    },
  },
};
for (const [lng, res] of Object.entries(VERDICT_WORDS))
  i18next.addResourceBundle(lng, 'verdicts', res, true, true);
