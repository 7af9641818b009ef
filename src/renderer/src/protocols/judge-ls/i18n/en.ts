// Judge-LS's strings, registered as the i18next namespace 'judge-ls' (see ../index.ts).
export const en = {
  estimateKinds: { 'back-translation': 'Back-translations', 'equivalence-verdict': 'Equivalence verdicts' },
  power: {
    accuracyChange: 'Accuracy change {{comparison}} (per judge)',
    flipRate: 'Flip rate {{comparison}} (per judge)',
  },
  estimateNote: {
    standIns:
      'Judge calls on translations not made yet are estimated from the English texts; output lengths are typical values.',
    typical: 'Output lengths are typical values; real usage replaces them as answers arrive.',
  },
  protocol: {
    title: 'Judge-LS: language sensitivity',
    description:
      'Every comparison is translated into Chinese (ZH) and into natural Chinese-English code-switching (LS), keeping every mistake of the original answers. Each judge then decides every comparison in all languages and both answer orders, so you see how often a verdict changes only because the language changed.',
  },
  wizard: {
    steps: {
      transform: 'Translation',
    },
    transform: {
      title: 'How should the texts be translated?',
      intro:
        'One model rewrites every item into the chosen languages before judging. By default it is the first judge’s provider with a model that translates well at a fair price.',
      provider: 'Provider',
      model: 'Model',
      languages: 'Languages',
      langZH: 'Simplified Chinese',
      langLS: 'Chinese-English code-switching',
      otherLanguages: 'Other languages (codes)',
      otherLanguagesPlaceholder: 'e.g. ar, hi, te, es, LS:ar',
      otherLanguagesHint:
        'Language codes such as ar, hi, te, sw, es, de, fr, ja, or LS:<code> for code-switching with English, separated by commas. LS:<code>@<0–100> asks for that percentage of content words in the language (several, e.g. LS:hi@0, LS:hi@50, LS:hi@100, give a dose–response).',
      verifyModel: 'Back-translation model (verified translations; empty: off)',
      verifySummary: '(verified by back-translation with {{model}})',
      preview: 'Prompt preview',
      previewLoading: 'Rendering the prompts…',
      previewFailed: 'The preview is not available:',
      previewItem: 'These are the exact prompts for item {{id}} with the current settings.',
      previewLabels: {
        transform: 'Transform → {{language}}',
        judge: 'Judge (EN, original order)',
        tieProbe: 'Tie probe (EN vs ZH; ZH text shown in English here)',
        tieProbeTarget: 'Tie probe (EN vs {{language}}; {{language}} text shown in English here)',
      },
      system: 'System',
      user: 'User',
      selfJudged:
        'The translator is also a judge ({{judges}}): that judge then rates texts it translated itself, which can favour them. Pick another model to translate, or keep it and say so when you report.',
    },
    templates: {
      title: 'Advanced: prompt templates',
      intro:
        'Leave a template empty to use the protocol’s default, shown filled in by the preview below. Text you enter replaces the default for this experiment.',
      defaultHint: 'Default in use.',
      customHint: 'Your template replaces the default.',
      placeholder: 'Default in use. Type to replace it. Placeholders (* = required): {{placeholders}}',
      reset: 'Reset to default',
      transformSystem: 'Translation: system prompt',
      transformUser: 'Translation: user message',
      languageRulesZH: 'Language rules for ZH',
      languageRulesLS: 'Language rules for LS',
      judgeSystem: 'Judge: system prompt',
      judgeUser: 'Judge: comparison',
      tieProbeUser: 'Judge: tie probe',
    },
    options: {
      tieProbes: 'Tie probes',
      tieProbesText:
        'Also show each judge the correct answer next to its own translation ({{languages}}). A fair judge calls these a tie; a preference shows a bias for one language.',
      tieProbesNeedZh:
        'Tie probes need a translation, not code-switching: choose ZH or a language code such as ar or hi in the Translation step to use them.',
      noiseFloor: 'Measure the noise floor',
      noiseFloorText:
        'Ask every English verdict a second time, unchanged (a placebo). The results then show how often a judge changes its verdict when nothing changes, beside every language flip rate. Adds one call per item, judge and order.',
      ci: 'Confidence intervals',
      ciText:
        'Which 95% intervals the tables and exports show (both are computed, and the results page can switch). Wilson treats every verdict as independent; the item-clustered bootstrap resamples whole items, since the two orders and languages of one item are not independent.',
    },
    summary: {
      transformer: 'Translation',
      tieProbes: 'Tie probes',
      noiseFloor: 'Noise floor',
      ci: 'Confidence intervals',
      templates: 'Prompt templates',
      templatesDefault: 'the protocol’s defaults',
      templatesEdited: 'edited: {{names}} (the others are the defaults)',
    },
    errors: {
      languagesRequired: 'Choose at least one language.',
      languagesUnknown: 'Unknown language code(s): {{codes}}.',
      templateEmpty: 'This template is empty; reset it to use the default.',
      templatePlaceholders: 'This template must contain {{names}}.',
    },
  },
  run: {
    variants: 'Translations',
  },
  variants: {
    title: 'Translations',
    intro:
      'Each item in English and its translations, side by side. Fields flagged by the automatic check (missing numbers, much shorter text…) are highlighted. Fix a translation by editing it; only the verdicts that used it are asked again.',
    introReadOnly:
      'Each item in English and its translations, side by side, as the study bundle holds them. Fields flagged by the automatic check (missing numbers, much shorter text…) are highlighted.',
    flaggedOnly: 'Only flagged items',
    itemCount_one: '{{count, number}} item',
    itemCount_other: '{{count, number}} items',
    listLabel: 'Items',
    flags_one: '{{count}} flag',
    flags_other: '{{count}} flags',
    manual: 'edited',
    field: 'Field',
    fieldNames: { instruction: 'Instruction', output_1: 'Output 1', output_2: 'Output 2' },
    fields: { instruction: 'Instruction', output1: 'Output 1', output2: 'Output 2' },
    noVariant: 'not translated yet',
    edit: 'Edit',
    editTitle: 'Edit the {{language}} translation',
    save: 'Save',
    saving: 'Saving…',
    saveFailed: 'Could not save the translation',
    saved: 'Saved the {{language}} translation of {{id}}.',
    noRerun: 'No verdict used the old text, so nothing needs to be asked again.',
    rerun_one: '{{count, number}} verdict will be asked again, estimated {{cost}}.',
    rerun_other: '{{count, number}} verdicts will be asked again, estimated {{cost}}.',
    rerunUnpriced_one: '{{count, number}} verdict will be asked again.',
    rerunUnpriced_other: '{{count, number}} verdicts will be asked again.',
    runNow: 'Run them now',
    starting: 'Starting…',
    started: 'Started: follow the run',
    loadFailed: 'Could not load the translations',
    none: 'No translations yet. They appear here while the run translates the items.',
    noneFlagged: 'No item was flagged by the automatic check.',
    toRun: 'Go to the run',
  },
  intervals: {
    label: 'Intervals',
    wilson: 'Wilson (verdicts independent)',
    bootstrap: 'Item-clustered bootstrap',
    help: 'The two answer orders of an item are not independent: the bootstrap resamples whole items. The config’s "ci" sets what exports show.',
  },
  browseFlips: 'Browse flips',
  seeFlips: 'See flips',
  failureBanner: {
    title:
      'Some languages have few or no usable verdicts. Their rows say so; rates leave the failed ones out.',
    line_one: '{{judge}} · {{language}}: {{usable, number}} usable verdict of {{total, number}}',
    line_other: '{{judge}} · {{language}}: {{usable, number}} usable verdicts of {{total, number}}',
    see: 'See Failures',
  },
  tooltip: {
    points: 'points',
    flip: 'flip',
    correctnessFlip: 'correctness flip',
    repeatFlip: 'EN-EN repeat flip (noise floor)',
    enWins: 'EN wins',
    tie: 'Tie',
    zhWins: 'ZH wins',
    targetWins: 'Translation wins',
  },
  clickForFlips: 'Click a flip bar or cell to see the verdicts behind it.',
  section: {
    quality: {
      title: 'Accuracy by language',
      help: 'How often each judge picks the better output, per language. Strict: a tie counts as wrong. Tie-half: a tie counts half. Brackets are 95% confidence intervals: Wilson for strict accuracy (or the item-clustered bootstrap when chosen), the Wilson score interval on the mean for tie-half (n = verdicts; it keeps a width at 0% and 100%).',
    },
    invariance: {
      title: 'Language invariance',
      help: 'Does the verdict stay the same when the same comparison is shown in Chinese (ZH) or code-switched text (LS)? Flip: the chosen output changes. Correctness flip: right becomes wrong or the reverse. McNemar p tests whether one language is judged correctly more often. The Wilson interval (the default) counts an item’s two orders as independent pairs: when a translation changes the verdict in both orders it is too narrow (it held a planted flip rate in under 90% of simulated studies, not 95%); the item-clustered bootstrap resamples items.',
    },
    noise_floor: {
      title: 'Noise floor',
      help: 'Each English verdict was asked a second time, unchanged. EN-EN: how often the judge changes its mind when nothing changes. Excess: the language flip rate minus this repeat flip rate on the same pairs (Newcombe paired 95% CI); McNemar p tests language-only against repeat-only flips. A language effect is more than noise only where the excess clears zero.',
    },
    position: {
      title: 'Position consistency',
      help: 'Share of items whose verdict changes when the two outputs swap places. Lower is better. Position lean, paired by item: items that chose the output shown first in both orders against those that chose the second in both (exact McNemar, Holm across the table); the first-position rate has Newcombe’s paired 95% CI over the items.',
    },
    tie_probe: {
      title: 'Tie probe: English vs Chinese',
      help: 'The gold output in English against its own Chinese translation. A fair judge says tie or splits evenly; p tests EN wins against ZH wins.',
    },
    tie_probe_target: {
      title: 'Tie probe: English vs {{languages}}',
      help: "The gold output in English against its own translation into each language ({{languages}}). A fair judge says tie or splits evenly; p tests EN wins against the translation's wins, the item as the unit, Holm across every judge and language.",
    },
    significance: {
      title: 'Significance tests',
      help: 'Exact two-sided tests. McNemar: pairs judged correctly only in English against only in the target language, with the item as the unit (its two orders count together). Tie probe: EN wins against ZH wins among non-tie verdicts, the item as the unit.',
    },
    subsets: {
      title: 'Accuracy by subset',
      help: 'Tie-half accuracy per dataset subset and language, with the Wilson score 95% interval on the mean (n = verdicts).',
    },
    usage: {
      title: 'Usage and cost',
      help:
        'Calls, tokens and cost per role. Cache hits were answered from stored responses for free. ' +
        'Cached input are prompt-cache reads (billed at the cached-input price); cache writes are ' +
        'Anthropic prompt-cache writes (billed at the cache-write price, 1.25 × input for the 5-minute ' +
        'cache); both are part of the input tokens.',
    },
    failures: {
      title: 'Failures',
      help: 'Calls that ended without a usable answer, by reason. They are left out of every rate above, never silently.',
    },
    dose_response: {
      title: 'Dose–response: flips by mixing ratio',
      help: 'Code-switched text asked at several mixing ratios (LS:<code>@<percent>). Measured: the share of content words in the second language, counted on the text the judge saw (by script; for a Latin-script language, words the English source does not have). Flips against English on the same items and orders, with 95% intervals.',
    },
    dose_trend: {
      title: 'Dose–response trend',
      help: 'Flips regressed on the measured ratio across the levels of each pair: the intercept is the flip rate at ratio 0, the slope the change from 0 to 100 % (points). Every item is judged at every ratio, so the test and interval treat an item’s verdicts as one cluster (cluster-robust t, items − 1 df; or the item bootstrap when chosen); Holm across the table.',
    },
  },
  figure: {
    accuracy_by_language: 'Accuracy by language (strict)',
    accuracy_by_language_tie_half: 'Accuracy by language (tie-half)',
    accuracy_drop: 'Accuracy change against English',
    flip_rates: 'Flip rates per comparison',
    position_inconsistency: 'Position inconsistency by language',
    tie_probe_preference: 'Tie probe: EN / tie / ZH',
    tie_probe_preference_target: 'Tie probe: EN / tie / translation ({{languages}})',
    subset_quality_heatmap: 'Subset × language (tie-half accuracy)',
    subset_flip_heatmap: 'Subset × comparison (flip rate)',
    dose_response: 'Flip rate against the measured mixing ratio',
  },
  order: { orig: 'orig', swap: 'swap' },
  probe: {
    en_zh: 'Probe EN|ZH',
    zh_en: 'Probe ZH|EN',
    en_target: 'Probe EN|{{language}}',
    target_en: 'Probe {{language}}|EN',
  },
  language: { ZH: 'Chinese (ZH)', LS: 'Code-switched (LS)' },
  flipType: {
    correct_to_wrong: 'correct → wrong',
    wrong_to_correct: 'wrong → correct',
    to_tie: 'to tie',
    from_tie: 'from tie',
    other: 'other',
    correctness: 'correctness changed',
  },
  flips: {
    title: 'Flips',
    intro:
      'Verdicts that change between English and the target language for the same judge, item and answer order.',
    loadFailed: 'Could not load the judgments',
    all: 'All',
    noSubset: '(no subset)',
    flagged: 'Flagged translation',
    flaggedNo: 'Not flagged',
    flaggedYes: 'Flagged',
    flaggedItem: 'The audit flagged this item’s translation',
    search: 'Search',
    searchPlaceholder: 'Item id, instruction or reason',
    count_one: '{{count, number}} of {{total, number}} flip',
    count_other: '{{count, number}} of {{total, number}} flips',
    keysHint: 'j / k: next / previous · o or Enter: open · Esc: back to the list',
    selectionGone: 'The flip in the link is not in this list (the filters leave it out).',
    noJudgments: 'No judgments yet.',
    none: 'No flips: every judge kept its verdict across languages.',
    repeatFlipped: 'flipped on repeat as well',
    repeatFlippedHelp:
      'The English verdict, asked again unchanged, chose otherwise too: this flip may be the judge’s own noise.',
    noMatches: 'No flip matches these filters.',
    col: {
      item: 'Item',
      judge: 'Judge',
      comparison: 'Comparison',
      order: 'Order',
      subset: 'Subset',
      choices: 'Choice (✓ = gold)',
      type: 'Type',
    },
  },
  detail: {
    back: 'Back to the list',
    previous: 'Previous',
    next: 'Next',
    position: 'Flip {{index, number}} of {{total, number}}',
    keysHint: 'j / k: next / previous flip · Esc: back to the list',
    goldIs: 'Gold: Output {{n}}',
    flagged: 'The audit flagged this item’s translation:',
    loadFailed: 'Could not load the item’s texts',
    verdictIn: 'Verdict in {{language}}',
    positions: 'A = Output {{a}}, B = Output {{b}}',
    winner: 'Winner',
    winnerIs: '{{position}} = Output {{output}}',
    tie: 'Tie',
    correct: 'correct',
    wrong: 'wrong',
    confidence: 'Confidence',
    reason: 'Reason',
    onlyIn: 'only in {{language}}',
    allVerdicts: 'Every verdict on this item',
    gridHint:
      'Quality: the chosen output (✓ green = gold, ✗ red = not). Probes: the language preferred. Hover a cell for its reason; the open flip is outlined.',
    failed: 'failed',
    texts: 'Texts',
    english: 'English',
    instruction: 'Instruction',
    output: 'Output {{n}}',
    gold: 'gold',
    emptyText: '(empty)',
    noVariant: 'No {{language}} text stored for this item.',
  },
};

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
/** The shape zh.ts must provide: the same keys. */
export type JudgeLsMessages = Widen<typeof en>;
