// Judge-LS in other languages with verified translations (issue 37), end to end through the
// real runner and SQLite: target codes (ar, hi, es, LS:ar) on the simulated provider, whose
// pseudo-languages write each in its script; a back-translating model scores every translation
// (chrF); a `-unfaithful<NN>` translator plants swapped translations, which the check must flag,
// and leaving the flagged items out must remove exactly the flips they caused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { Core } from '../../src/main/facade/core';
import type { JudgeLsMetrics } from '../../src/shared/protocols/judge-ls/types';
import {
  JUDGMENTS_VIEW,
  VARIANTS_VIEW,
  type JudgmentView,
  type VariantView,
} from '../../src/shared/protocols/judge-ls/views';
import { normalizeChoice } from '../../src/shared/protocols/judge-ls/choice';
import { tempDir } from '../helpers/tmp';
import { buildTables } from '../../src/shared/protocols/judge-ls/report/tables';
import { buildFigureSpecs } from '../../src/shared/protocols/judge-ls/report/figures';
import { wilsonInterval } from '../../src/shared/stats/intervals';
import { agreementTables } from '../../src/shared/annotation/report';
import { methodsNumber } from '../../src/shared/paper/methods';
import { localizeFigure } from '../../src/shared/report/figure-i18n';
import { JUDGE_LS_FIGURES_ZH } from '../../src/shared/protocols/judge-ls/report/figure-zh';
import { cardSpeaker } from '../../src/shared/report-card/phrases';
import { judgeLsReportCard } from '../../src/main/protocols/judge-ls/report-card';
import { JUDGE_LS_CARD_TEXT } from '../../src/shared/protocols/judge-ls/report/card-text';

const SIM = { sim: { kind: 'simulated', latencyMs: 0, rpm: 60_000, concurrency: 16 } };
const LANGS = ['ar', 'hi', 'es', 'LS:ar'];

let core: Core;
let cleanup: () => void;
/** The unfaithful study with the LLM verdict on (run by its test, rated by people in a later one). */
let llmStudy: Study | undefined;

beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  core = new Core({
    dataDir: t.dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({}),
    engine: { progressIntervalMs: 200 },
  });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
}, 120_000);

afterAll(async () => {
  await core?.shutdown();
  cleanup?.();
});

interface Study {
  id: number;
  metrics: JudgeLsMetrics;
  variants: VariantView[];
  judgments: JudgmentView[];
}

async function run(name: string, translator: string, llmVerdict = false): Promise<Study> {
  const config = {
    name,
    protocol: 'judge-ls',
    dataset: 'LLMBar (sample)',
    limit: 24,
    providers: SIM,
    transform: {
      provider: 'sim',
      model: translator,
      languages: LANGS,
      verify: { provider: 'sim', model: 'sim-back-translator', ...(llmVerdict ? { llmVerdict } : {}) },
    },
    judges: [
      { label: 'Sim strong', provider: 'sim', model: 'sim-judge-strong' },
      { label: 'Sim weak', provider: 'sim', model: 'sim-judge-weak' },
    ],
    tieProbes: false,
    // Fewer bootstrap resamples: these tests read counts and Wilson intervals, and each switch recomputes.
    options: { bootstrapB: 200 },
  };
  const { id } = await core.call('experiments.create', { config });
  const final = await core.experiments.runToEnd(id);
  expect(final.status).toBe('finished');
  const results = await core.call('experiments.results', { experimentId: id });
  const view = (v: string) => core.call('experiments.protocolView', { experimentId: id, view: v });
  return {
    id,
    metrics: results.metrics as JudgeLsMetrics,
    variants: (await view(VARIANTS_VIEW)) as VariantView[],
    judgments: (await view(JUDGMENTS_VIEW)) as JudgmentView[],
  };
}

/** Flipped (EN vs target, same item and order) pairs of a judge, counted from the verdicts. */
function flips(
  js: readonly JudgmentView[],
  judge: string,
  target: string,
  keep: (sourceId: string) => boolean,
) {
  const ok = js.filter((j) => j.judge === judge && j.status === 'ok' && j.winner && keep(j.sourceId));
  const en = new Map(ok.filter((j) => j.language === 'EN').map((j) => [`${j.sourceId}:${j.order}`, j]));
  let n = 0;
  let flipped = 0;
  for (const t of ok.filter((j) => j.language === target)) {
    const e = en.get(`${t.sourceId}:${t.order}`);
    if (!e) continue;
    n++;
    const choice = (j: JudgmentView) => normalizeChoice(j.order as 'orig' | 'swap', j.winner!);
    if (choice(e) !== choice(t)) flipped++;
  }
  return { n, flipped };
}

describe('Judge-LS in other languages, verified by back-translation', () => {
  let faithful: Study;
  let unfaithful: Study;

  beforeAll(async () => {
    faithful = await run('languages-faithful', 'sim-translator');
    unfaithful = await run('languages-unfaithful', 'sim-translator-unfaithful30');
  }, 300_000);

  it('judges every target language and compares each with English', () => {
    const m = faithful.metrics;
    expect(new Set(m.quality.map((r) => r.language))).toEqual(new Set(['EN', ...LANGS]));
    expect(m.language_invariance.filter((r) => r.judge === 'Sim strong').map((r) => r.comparison)).toEqual(
      LANGS.map((l) => `EN-${l}`),
    );
    // A length-ratio rule per listed target beside ZH's and LS's.
    expect(m.audit.checks.map((c) => c.rule)).toEqual(
      expect.arrayContaining([
        'length_ratio.ZH',
        'length_ratio.LS',
        ...LANGS.map((l) => `length_ratio.${l}`),
      ]),
    );
  });

  it('writes each language in its own script (pseudo-languages of the simulated provider)', () => {
    const text = (l: string) =>
      faithful.variants
        .filter((v) => v.language === l)
        .map((v) => v.instruction + v.output1)
        .join(' ');
    expect(text('ar')).toMatch(/\p{Script=Arabic}/u);
    expect(text('ar')).not.toMatch(/\p{Script=Devanagari}/u);
    expect(text('hi')).toMatch(/\p{Script=Devanagari}/u);
    expect(text('es')).toMatch(/[áéíóúñ]/);
    expect(text('es')).not.toMatch(/\p{Script=Han}|\p{Script=Arabic}/u);
    // Code-switched Arabic keeps some English words; plain Arabic keeps none but code and names.
    const latinWords = (s: string) => (s.match(/\b[A-Za-z]{8,}\b/g) ?? []).length;
    expect(latinWords(text('LS:ar'))).toBeGreaterThan(latinWords(text('ar')));
  });

  it('back-translates every translation: the faithful translator is verified throughout', () => {
    const v = faithful.metrics.verification!;
    expect(v.model).toBe('sim-back-translator');
    expect(v.translations).toHaveLength(24 * LANGS.length);
    // Pseudo-languages come back exactly; only a careless translation (numbers lost) is below 100.
    const below = v.translations.filter((r) => r.chrf! < 100);
    for (const r of below)
      expect(
        faithful.variants.some(
          (x) => x.sourceId === r.item_id && /几/.test(x.output1 + x.output2 + x.instruction),
        ),
      ).toBe(true);
    expect(v.excluded_item_ids).toEqual([]);
    expect(v.language_invariance).toEqual(faithful.metrics.language_invariance);
  });

  it('reports the check per translation and the flips on verified items only as tables', () => {
    const tables = buildTables(unfaithful.metrics);
    const perTranslation = tables.find((t) => t.id === 'verification')!;
    expect(perTranslation.rows).toHaveLength(24 * LANGS.length);
    expect(perTranslation.rows.filter((r) => r.verified === 'no')).toHaveLength(
      unfaithful.metrics.verification!.translations.filter((r) => !r.verified).length,
    );
    const verifiedOnly = tables.find((t) => t.id === 'verified_only')!;
    expect(verifiedOnly.rows.map((r) => r.comparison)).toEqual(
      unfaithful.metrics.language_invariance.map((r) => r.comparison),
    );
    // Rows of the other targets come after EN in the quality table, in the study's order.
    const quality = tables.find((t) => t.id === 'quality')!;
    const strong = quality.rows.filter((r) => r.judge === 'Sim strong').map((r) => r.language);
    expect(strong).toEqual(['EN', ...LANGS]);
    // The accuracy and position figures draw a bar series per language, the others after EN, ZH, LS.
    const figures = buildFigureSpecs(unfaithful.metrics);
    for (const id of ['accuracy_by_language', 'position_inconsistency']) {
      const series = figures.find((f) => f.id === id)!.option.series as { name?: string; type?: string }[];
      const names = [...new Set(series.filter((x) => x.type === 'bar').map((x) => x.name))];
      expect(names).toEqual(['EN', 'ZH', 'LS', ...LANGS]);
    }
    // …and so do the accuracy change, the flips and the subset heatmaps (a column per language or comparison).
    const barNames = (id: string) => {
      const series = figures.find((f) => f.id === id)!.option.series as { name?: string; type?: string }[];
      return [...new Set(series.filter((x) => x.type === 'bar').map((x) => x.name))];
    };
    expect(barNames('accuracy_drop')).toEqual(['ZH', 'LS', ...LANGS].map((l) => `${l} − EN`));
    expect(barNames('flip_rates')).toEqual(
      ['ZH', 'LS', ...LANGS].flatMap((l) => [`Flip EN-${l}`, `Correctness flip EN-${l}`]),
    );
    const columns = (id: string) =>
      (figures.find((f) => f.id === id)!.option.xAxis as { data: string[] }[])[0].data;
    expect(columns('subset_quality_heatmap')).toEqual(['EN', 'ZH', 'LS', ...LANGS]);
    expect(columns('subset_flip_heatmap')).toEqual(['EN-ZH', 'EN-LS', ...LANGS.map((l) => `EN-${l}`)]);
    const heat = figures.find((f) => f.id === 'subset_flip_heatmap')!.option.series as { data: unknown[] }[];
    expect(heat[0].data.length).toBeGreaterThan(0);
    // The 中文 figure names the other comparisons too.
    const zhFlips = localizeFigure(
      figures.find((f) => f.id === 'flip_rates')!,
      'zh',
      [JUDGE_LS_FIGURES_ZH],
    );
    const zhNames = (zhFlips.option.series as { name?: string }[]).map((x) => x.name);
    expect(zhNames).toContain('判断翻转 EN-ar');
    expect(zhNames).toContain('正确性翻转 EN-LS:ar');
    // Without `verify` there are no such tables (and no `verification` key).
    const { verification: _v, ...without } = unfaithful.metrics;
    expect(buildTables(without).some((t) => t.id === 'verification' || t.id === 'verified_only')).toBe(false);
  });

  it('flags the planted unfaithful translations, and only them', () => {
    const key = (v: VariantView) => `${v.sourceId}:${v.language}`;
    const before = new Map(faithful.variants.map((v) => [key(v), v]));
    const planted = new Set(
      unfaithful.variants
        .filter((v) => {
          const f = before.get(key(v))!;
          return v.output1 !== f.output1 && v.output1 === f.output2 && v.output2 === f.output1;
        })
        .map(key),
    );
    // Every other translation is the faithful one, to the character.
    for (const v of unfaithful.variants)
      if (!planted.has(key(v))) expect(v.output1).toBe(before.get(key(v))!.output1);
    expect(planted.size).toBeGreaterThan(5);
    const rows = unfaithful.metrics.verification!.translations;
    const flagged = rows.filter((r) => !r.verified);
    for (const r of flagged) {
      expect(planted.has(`${r.item_id}:${r.language}`)).toBe(true);
      expect(r.reason).toMatch(/^chrF \d+\.\d < 40$/);
    }
    // A swap goes unnoticed only where LLMBar's two responses are near-identical in English, so
    // the swapped translation is close to a faithful one; the check finds most swaps.
    const missed = rows.filter((r) => r.verified && planted.has(`${r.item_id}:${r.language}`));
    for (const r of missed) expect(Math.min(r.chrf_output_1!, r.chrf_output_2!)).toBeGreaterThanOrEqual(40);
    expect(flagged.length).toBeGreaterThan(missed.length * 4);
  });

  it('with the LLM verdict on, the model also calls the swapped translations not equivalent, with a reason', async () => {
    const judged = await run('languages-unfaithful-llm', 'sim-translator-unfaithful30', true);
    llmStudy = judged;
    const rows = judged.metrics.verification!.translations;
    const chrfOnly = unfaithful.metrics.verification!.translations;
    // The back-translations are the same; the verdict is one more check per translation.
    expect(rows.map((r) => r.chrf)).toEqual(chrfOnly.map((r) => r.chrf));
    const key = (r: { item_id: string; language: string }) => `${r.item_id}:${r.language}`;
    const before = new Map(faithful.variants.map((v) => [`${v.sourceId}:${v.language}`, v]));
    const swapped = new Set(
      judged.variants
        .filter((v) => v.output1 !== before.get(`${v.sourceId}:${v.language}`)!.output1)
        .map((v) => `${v.sourceId}:${v.language}`),
    );
    for (const r of rows) {
      expect(r.llm_equivalent).toBe(!swapped.has(key(r)));
      expect(r.llm_reason).toMatch(/\(simulated\)$/);
    }
    // It also catches the swaps chrF misses (two near-identical responses), so nothing swapped is verified.
    expect(rows.filter((r) => r.verified && swapped.has(key(r)))).toEqual([]);
    for (const r of rows.filter((x) => x.llm_equivalent === false))
      expect(r.reason).toMatch(/LLM verdict: not equivalent/);
    const table = buildTables(judged.metrics).find((t) => t.id === 'verification')!;
    expect(table.columns.map((c) => c.key)).toContain('llm_equivalent');
    expect(table.rows.filter((r) => r.llm_equivalent === 'not equivalent')).toHaveLength(swapped.size);
    // Without llmVerdict the rows carry no verdict fields (metrics.json as the chrF check alone).
    expect(chrfOnly.every((r) => !('llm_equivalent' in r))).toBe(true);
  }, 120_000);

  it('leaving the unverified items out removes the flips the unfaithful translations caused', () => {
    const excluded = new Set(unfaithful.metrics.verification!.excluded_item_ids);
    const kept = (s: string) => !excluded.has(s);
    let extraFlips = 0;
    for (const judge of ['Sim strong', 'Sim weak']) {
      for (const l of LANGS) {
        // The verdicts on verified items are the faithful study's, so are their flips…
        const a = flips(faithful.judgments, judge, l, kept);
        const b = flips(unfaithful.judgments, judge, l, kept);
        expect(b).toEqual(a);
        const row = unfaithful.metrics.verification!.language_invariance.find(
          (r) => r.judge === judge && r.comparison === `EN-${l}`,
        )!;
        expect(row.n).toBe(b.n);
        expect(row.flip_rate * row.n).toBeCloseTo(b.flipped, 9);
        // …while on all items the unfaithful study flips more.
        extraFlips +=
          flips(unfaithful.judgments, judge, l, () => true).flipped -
          flips(faithful.judgments, judge, l, () => true).flipped;
      }
    }
    expect(extraFlips).toBeGreaterThan(0);
  });

  it('the verified-only switch recomputes every table on the verified items and says which it left out', async () => {
    const all = await core.call('experiments.results', { experimentId: unfaithful.id });
    const on = await core.call('experiments.results', { experimentId: unfaithful.id, verifiedOnly: true });
    const v = unfaithful.metrics.verification!;
    expect(v.excluded_item_ids.length).toBeGreaterThan(0);
    // The same left-out items either way, each with its failing translations as "<language>: <why>".
    for (const r of [all, on]) {
      expect(r.unverified!.map((u) => u.item_id)).toEqual(v.excluded_item_ids);
      for (const u of r.unverified!)
        for (const why of u.reasons) expect(why).toMatch(/^(LS:)?[a-z]{2}: chrF /);
    }
    const m = on.metrics as JudgeLsMetrics;
    // The headline tables on verified items are the verification section's, computed apart.
    expect(m.quality).toEqual(v.quality);
    expect(m.language_invariance).toEqual(v.language_invariance);
    // Every other table too: an item's two orders are one position unit, and every verdict here is valid.
    const left = v.excluded_item_ids.length;
    for (const row of m.position) {
      const was = unfaithful.metrics.position.find(
        (r) => r.judge === row.judge && r.language === row.language,
      )!;
      expect(row.n).toBe(was.n - left);
    }
    // The verdict browser opens the rows the switched tables count.
    const rowsOn = await core.call('experiments.verdicts', {
      experimentId: unfaithful.id,
      verifiedOnly: true,
    });
    const shown = new Set(rowsOn.rows.map((r) => r.sourceId));
    const judged = new Set(unfaithful.judgments.map((j) => j.sourceId));
    expect([...judged].filter((i) => !shown.has(i)).sort()).toEqual([...v.excluded_item_ids].sort());
    // A study whose every translation passed has the switch (nothing left out); one without verify has none.
    const faithfulOn = await core.call('experiments.results', {
      experimentId: faithful.id,
      verifiedOnly: true,
    });
    expect(faithfulOn.unverified).toEqual([]);
    expect(faithfulOn.metrics).toEqual(faithful.metrics);
  });

  it('people mark "equivalent?" on a sample, and the report gives each automatic check\'s κ, sensitivity and specificity', async () => {
    const study = llmStudy!;
    const TASK = 'translation_equivalence';
    expect(await core.call('annotation.tasks', { experimentId: study.id })).toEqual({ tasks: [TASK] });
    await expect(
      core.call('annotation.createSet', { experimentId: study.id, size: 10, task: 'no_such_task' }),
    ).rejects.toThrow(/has no rating task "no_such_task"/);
    const set = await core.call('annotation.createSet', {
      experimentId: study.id,
      size: 40,
      seed: 5,
      task: TASK,
    });
    expect(set.scale).toEqual({ kind: 'label', labels: ['yes', 'no'], task: TASK, positive: 'no' });
    expect(set.itemCount).toBe(40);
    // Stratified by the check's pass/fail × language, each stratum its proportional share.
    const rows = study.metrics.verification!.translations;
    for (const st of set.strata) {
      const [, outcome, language] = /^check-(pass|fail) × (.+)$/.exec(st.stratum)!;
      expect(st.available).toBe(
        rows.filter((r) => r.language === language && r.verified === (outcome === 'pass')).length,
      );
      expect(Math.abs(st.sampled - (40 * st.available) / rows.length)).toBeLessThan(1);
    }
    expect(set.strata.some((st) => st.stratum.startsWith('check-fail') && st.sampled > 0)).toBe(true);

    // Two people who see the English source and the translation and say "no" exactly when the
    // translation's two responses were swapped (the planted unfaithful translations).
    const asText = (t: { instruction: string; output1: string; output2: string }) =>
      `${t.instruction}\n\n[1] ${t.output1}\n\n[2] ${t.output2}`;
    const truth = new Map<string, { item: string; language: string; value: 'yes' | 'no' }>();
    for (const v of faithful.variants) {
      const swapped = asText({ ...v, output1: v.output2, output2: v.output1 });
      truth.set(swapped, { item: v.sourceId, language: v.language, value: 'no' });
      truth.set(asText(v), { item: v.sourceId, language: v.language, value: 'yes' });
    }
    const rated: { item: string; language: string; value: 'yes' | 'no' }[] = [];
    for (const annotator of ['ann-1', 'ann-2']) {
      const session = await core.call('annotation.session', { setId: set.id, annotator });
      for (const it of session.items) {
        expect(it.view.responses).toHaveLength(1);
        const t = truth.get(it.view.responses[0])!;
        expect(t).toBeDefined();
        // The English source beside it, numbered as the translation is.
        expect(it.view.prompt).toMatch(/\n\n\[1\] [\s\S]*\n\n\[2\] /);
        if (annotator === 'ann-1') rated.push(t);
        await core.call('annotation.label', {
          setId: set.id,
          annotator,
          unitUid: it.unitUid,
          value: t.value,
        });
      }
    }
    expect(rated.some((r) => r.value === 'no')).toBe(true);
    const report = await core.call('annotation.agreement', { setId: set.id });
    const byKey = new Map(rows.map((r) => [`${r.item_id}:${r.language}`, r]));
    const expected = (check: (r: (typeof rows)[number]) => boolean) => {
      const c = { tp: 0, fn: 0, tn: 0, fp: 0 };
      for (const r of rated) {
        const flagged = check(byKey.get(`${r.item}:${r.language}`)!);
        const cell = r.value === 'no' ? (flagged ? 'tp' : 'fn') : flagged ? 'fp' : 'tn';
        c[cell]++;
      }
      return c;
    };
    const acc = report.check_accuracy!;
    expect(acc.map((a) => a.judge).sort()).toEqual(['LLM verdict', 'chrF ≥ 40']);
    for (const [judge, check] of [
      ['chrF ≥ 40', (r: (typeof rows)[number]) => r.chrf! < 40],
      ['LLM verdict', (r: (typeof rows)[number]) => r.llm_equivalent === false],
    ] as const) {
      const a = acc.find((x) => x.judge === judge)!;
      const c = expected(check);
      expect([a.true_positive, a.false_negative, a.true_negative, a.false_positive]).toEqual([
        c.tp,
        c.fn,
        c.tn,
        c.fp,
      ]);
      expect(a.sensitivity).toBeCloseTo(c.tp / (c.tp + c.fn), 12);
      expect(a.sensitivity_ci).toEqual(wilsonInterval(c.tp, c.tp + c.fn));
      expect(a.specificity_ci).toEqual(wilsonInterval(c.tn, c.tn + c.fp));
      // κ with people, its interval inside [−1, 1] or undefined with the reason.
      const k = report.judge_human.find((r) => r.judge === judge)!;
      expect(k.n).toBe(40);
      if (k.kappa_ci) expect(k.kappa_ci[0] >= -1 && k.kappa_ci[1] <= 1).toBe(true);
      else expect(k.kappa_ci_undefined_reason).toBeTruthy();
    }
    // The simulated checker calls exactly the swaps not equivalent: it agrees with the people fully.
    const llm = acc.find((x) => x.judge === 'LLM verdict')!;
    expect([llm.sensitivity, llm.specificity]).toEqual([1, 1]);
    expect(report.judge_human.find((r) => r.judge === 'LLM verdict')!.kappa).toBe(1);
    // The report's tables carry it (the dashboard, the CLI's text and the zip export read these).
    const table = agreementTables(report).find((t) => t.id === 'check_accuracy')!;
    expect(table.rows.map((r) => r.judge)).toEqual(acc.map((a) => a.judge));
  }, 60_000);

  it('the Methods section and the report card name the languages, the check and its pass rate, EN and 中文', async () => {
    const study = llmStudy!;
    const v = study.metrics.verification!;
    const passed = v.translations.filter((r) => r.verified).length;
    const items = new Set(v.translations.map((r) => r.item_id)).size;
    const en = (await core.call('experiments.methods', { experimentId: study.id, lang: 'en' })).markdown;
    expect(en).toContain(
      'Target languages: Arabic (ar); Hindi (hi); Spanish (es); Arabic-English code-switching (LS:ar).',
    );
    expect(en).toContain(
      `translated back into English by sim/sim-back-translator and scored against the English source with ${v.metric}`,
    );
    expect(en).toMatch(
      /below chrF 40, or one the same model's equivalence verdict on source and translation called not equivalent, was not verified/,
    );
    const m =
      /(\d+) of (\d+) translations passed \(pass rate ([\d.]+)\); (\d+) of (\d+) items had every translation verified/.exec(
        en,
      )!;
    expect(m.slice(1).map(Number)).toEqual([
      passed,
      v.translations.length,
      Number(methodsNumber(passed / v.translations.length)),
      items - v.excluded_item_ids.length,
      items,
    ]);
    for (const l of LANGS) {
      const rows = v.translations.filter((r) => r.language === l);
      const k = rows.filter((r) => r.verified).length;
      expect(en).toContain(
        `: ${k} of ${rows.length} translations passed (${methodsNumber(k / rows.length)})`,
      );
    }
    const zh = (await core.call('experiments.methods', { experimentId: study.id, lang: 'zh' })).markdown;
    expect(zh).toContain(
      '目标语言：阿拉伯语 (ar)、印地语 (hi)、西班牙语 (es)、阿拉伯语–英语语码转换 (LS:ar)。',
    );
    expect(zh).toContain(`${v.translations.length} 个译文中有 ${passed} 个通过`);
    const section = zh.slice(zh.indexOf('目标语言与译文验证'));
    expect(section.slice(0, section.indexOf('\n## ') > 0 ? section.indexOf('\n## ') : undefined)).not.toMatch(
      /\b(translated|passed|items)\b/,
    );

    // The card of a judge of this study: the pass rate per language, then its flips on verified items.
    // (The contribution the card page and exports show for this experiment, read from its metrics.)
    const exp = judgeLsReportCard(study.metrics, 'Sim strong');
    const checks = exp.rows.filter((r) => r.measure === 'translation_verified');
    expect(checks).toHaveLength(LANGS.length);
    const speak = cardSpeaker('en', () => JUDGE_LS_CARD_TEXT);
    const ar = checks.find((r) => speak.phrase(r.condition, 'judge-ls').startsWith('Arabic (ar)'))!;
    expect(speak.phrase(ar.condition, 'judge-ls')).toBe(
      "Arabic (ar): translated back by sim/sim-back-translator, chrF ≥ 40 and the model's equivalence verdict",
    );
    const arRows = v.translations.filter((r) => r.language === 'ar');
    expect([ar.n, ar.value]).toEqual([
      arRows.length,
      arRows.filter((r) => r.verified).length / arRows.length,
    ]);
    expect(cardSpeaker('zh', () => JUDGE_LS_CARD_TEXT).phrase(ar.condition, 'judge-ls')).toBe(
      '阿拉伯语 (ar)：由 sim/sim-back-translator 回译，chrF ≥ 40，并经该模型判定等价',
    );
    const verifiedFlips = exp.rows.filter((r) => r.condition.key === 'verified_only');
    expect(verifiedFlips.map((r) => r.value)).toEqual(
      v.language_invariance.filter((r) => r.judge === 'Sim strong').map((r) => r.flip_rate),
    );
  });
});
