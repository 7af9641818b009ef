import { i18next } from '../host';

export const SC_NS = 'self-consistency';
export const SC_NAMESPACES = [SC_NS, 'results', 'translation'];

const en = {
  // The estimate's kinds of call: the first ask of a question and its repeats (what they cost).
  estimateKinds: { 'first-ask': 'First ask', repeat: 'Repeat' },
  // The power plan's comparisons (the core's labels, main/protocols/self-consistency/power.ts).
  power: {
    repeatDisagreement: 'Repeats disagree (1 − unanimous rate) vs p0, {{condition}} (per judge)',
    positionInconsistency: 'Majority of {{k}} changes with the order vs p0, {{condition}} (per judge)',
  },
  estimateNote: {
    repeats:
      'Repeats are separate calls: samples 1 … K − 1 are never answered from the first ask (each is its own stored request); a first ask (and any repeat) already stored by an earlier experiment is not paid again.',
  },
  protocol: {
    title: 'Self-consistency',
    description:
      'How often does a judge disagree with itself when nothing changes? Each judge answers the same request several times (at its own temperature or at the ones you list; pairs in both orders): unanimity, P(two repeats disagree), Fleiss κ, ICC(1) for scores, and whether a vote of k repeats is more accurate than one.',
  },
  wizard: {
    steps: { repeats: 'Repeats' },
    repeats: {
      title: 'How often to ask again',
      intro:
        'Every question is sent as the very same request K times; each repeat is its own call (paid once, stored under its sample number). Pairwise data asks about pairs, pointwise data scores single responses.',
      repeats: 'Repeats per question (K)',
      repeatsHint: '2 to 20. The estimate shows what the repeats cost beside the first asks.',
      temperatures: 'Temperatures (optional)',
      temperaturesHint:
        'Empty: each judge at its own temperature. One to four values, e.g. "0, 0.7": one condition each.',
      temperaturesPlaceholder: "each judge's own",
      orders: 'Answer orders (pairwise data)',
      orders_both: 'Both orders (A = output 1, then A = output 2): position consistency by k',
      orders_one: 'The original order only',
      scale: 'Score scale (pointwise data)',
      scaleHint: 'Used when the dataset holds single responses.',
    },
    summary: { repeats: 'Repeats per question', temperatures: 'Temperatures', orders: 'Orders' },
    errors: {
      repeatsRange: 'Repeats must be a whole number from 2 to 20.',
      temperaturesInvalid: 'List one to four different numbers from 0 to 2, separated by commas.',
    },
  },
  results: {
    stability: 'Stability by judge and temperature',
    accuracy: 'Accuracy of a vote of k repeats',
    position: 'Position consistency with k repeats',
    histogram: 'Agreement among the repeats, per question',
    hint: 'A question is one request asked K times. P(disagree): the chance that two of its repeats differ; the whiskers are item-clustered bootstrap 95% CIs.',
    browse: 'Browse unstable items',
  },
  unstable: {
    title: 'Unstable items',
    intro: 'Questions whose repeats do not all agree: every repeat’s verdict and reason side by side.',
    toResults: 'Results',
    judge: 'Judge',
    condition: 'Temperature',
    category: 'Category',
    any: 'Any',
    all: 'Show stable questions too',
    count: '{{shown}} of {{total}} questions',
    loading: 'Loading…',
    loadFailed: 'Could not load the repeats',
    none: 'No question matches.',
    back: 'Back to the list',
    open: 'Open',
    col: { item: 'Item', judge: 'Judge', condition: 'Temperature', order: 'Order', verdicts: 'Verdicts' },
    instruction: 'Instruction',
    responseA: 'Response A',
    responseB: 'Response B',
    response: 'Response',
    gold: 'Gold: {{gold}}',
    repeat: 'Repeat {{n}}',
    failed: 'No usable answer',
    pending: 'Not answered yet',
    confidence: 'Confidence {{value}}',
    diffTitle: 'Repeat {{n}} against repeat 1',
    onlyIn: 'only in repeat {{n}}',
    order: { orig: 'A = output 1', swap: 'A = output 2', '-': 'single response' },
    own: "judge's own",
  },
};

const zh: typeof en = {
  estimateKinds: { 'first-ask': '首次提问', repeat: '重复提问' },
  power: {
    repeatDisagreement: '重复之间不一致（1 − 全票一致率）对 p0，{{condition}}（每个评审模型）',
    positionInconsistency: '前 {{k}} 次的多数票随顺序改变 对 p0，{{condition}}（每个评审模型）',
  },
  estimateNote: {
    repeats:
      '重复提问是独立的调用：第 1 … K − 1 次重复不会用首次提问的答案代替（各自是单独存储的请求）；先前实验已存储的首次提问（及任何重复）不会再次付费。',
  },
  protocol: {
    title: '自洽性',
    description:
      '在什么都没变的情况下，评审模型有多常与自己意见不一？每个评审模型对同一请求回答多次（使用其自身温度或您列出的温度；成对数据按两种顺序）：全体一致率、两次重复不一致的概率、Fleiss κ、评分的 ICC(1)，以及 k 次重复投票是否比一次更准确。',
  },
  wizard: {
    steps: { repeats: '重复' },
    repeats: {
      title: '重复提问几次',
      intro:
        '每道题以完全相同的请求发送 K 次；每次重复都是单独的调用（只付费一次，按样本编号存储）。成对数据比较两个回答，单项数据为单个回答评分。',
      repeats: '每道题的重复次数（K）',
      repeatsHint: '2 到 20。费用估算会把重复的费用与首次提问分开列出。',
      temperatures: '温度（可选）',
      temperaturesHint: '留空：每个评审模型使用自身温度。一到四个值，例如“0, 0.7”：每个值一个条件。',
      temperaturesPlaceholder: '评审模型自身设置',
      orders: '回答顺序（成对数据）',
      orders_both: '两种顺序（A = 回答 1，再 A = 回答 2）：按 k 统计位置一致性',
      orders_one: '仅原始顺序',
      scale: '评分量表（单项数据）',
      scaleHint: '数据集为单个回答时使用。',
    },
    summary: { repeats: '每道题的重复次数', temperatures: '温度', orders: '顺序' },
    errors: {
      repeatsRange: '重复次数须为 2 到 20 的整数。',
      temperaturesInvalid: '请列出一到四个 0 到 2 之间互不相同的数，用逗号分隔。',
    },
  },
  results: {
    stability: '按评审模型与温度的稳定性',
    accuracy: 'k 次重复投票的准确率',
    position: 'k 次重复时的位置一致性',
    histogram: '每道题各次重复之间的一致程度',
    hint: '一道题是被提问 K 次的同一请求。不一致概率：其中两次重复结果不同的概率；误差线为按条目聚类的自助法 95% 置信区间。',
    browse: '浏览不稳定条目',
  },
  unstable: {
    title: '不稳定条目',
    intro: '各次重复结果不完全一致的题目：每次重复的判断与理由并排显示。',
    toResults: '结果',
    judge: '评审模型',
    condition: '温度',
    category: '类别',
    any: '全部',
    all: '同时显示稳定的题目',
    count: '共 {{total}} 道题，显示 {{shown}} 道',
    loading: '正在加载…',
    loadFailed: '无法加载重复结果',
    none: '没有符合条件的题目。',
    back: '返回列表',
    open: '打开',
    col: { item: '条目', judge: '评审模型', condition: '温度', order: '顺序', verdicts: '判断' },
    instruction: '指令',
    responseA: '回答 A',
    responseB: '回答 B',
    response: '回答',
    gold: '标准答案：{{gold}}',
    repeat: '第 {{n}} 次',
    failed: '没有可用的回答',
    pending: '尚未回答',
    confidence: '置信度 {{value}}',
    diffTitle: '第 {{n}} 次与第 1 次对比',
    onlyIn: '仅见于第 {{n}} 次',
    order: { orig: 'A = 回答 1', swap: 'A = 回答 2', '-': '单个回答' },
    own: '评审模型自身设置',
  },
};

export const scResources = { en, zh };

for (const [lng, res] of Object.entries(scResources)) {
  i18next.addResourceBundle(lng, SC_NS, res, true, true);
}

// The verdict browser (generic, namespace 'verdicts') lists the stability, accuracy and position tables' questions with
// fields and values of this protocol: its words are added to that namespace from here.
const VERDICT_WORDS = {
  en: {
    fields: { condition: 'Temperature', category: 'Category', order: 'Order', k: 'k' },
    values: {
      own: en.unstable.own,
      orig: 'original order',
      swap: 'swapped order',
      '-': 'single response',
      question: 'question (every repeat)',
      vote: 'vote of the first k repeats',
      complete: 'complete question (every repeat valid)',
      order_vote: 'votes of the first k repeats in both orders',
      graded: 'question with gold (every repeat graded)',
      order_pair: 'item in both orders (every repeat)',
    },
  },
  zh: {
    fields: { condition: '温度', category: '类别', order: '顺序', k: 'k' },
    values: {
      own: zh.unstable.own,
      orig: '原顺序',
      swap: '交换顺序',
      '-': '单个回答',
      question: '题目（全部重复）',
      vote: '前 k 次重复的投票',
      complete: '完整题目（每次重复都有效）',
      order_vote: '两种顺序下前 k 次重复的投票',
      graded: '有标准答案的题目（逐次评分）',
      order_pair: '两种顺序下的条目（全部重复）',
    },
  },
};
for (const [lng, res] of Object.entries(VERDICT_WORDS))
  i18next.addResourceBundle(lng, 'verdicts', res, true, true);
