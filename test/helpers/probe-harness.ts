// The one harness of the bias-probe tests (test/protocols/bias-probes-*/run.test.ts and the two
// probe-family helpers, added-sentence-suite.ts and prompt-probe.ts). Each of them used to carry its
// own copy of what follows: the LLMBar sample's records, a stable draw per unit, a core on a fresh
// data folder with the mock provider answering in both wire formats (OpenAI and Anthropic), the
// config that points a run at it, and the recomputation of a probe's profile row from the mock's
// log (effect, interval, Wilcoxon on the item means, Holm, flip rate, robustness rate) compared
// with the app's. Here once, so a probe's test says only what is its own: how its mock recognises
// the perturbation, what it plants, and the probe's specific assertions.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { cardMarkdown, registryCardText } from '../../src/main/report-card/export';
import { cardView } from '../../src/shared/report-card/phrases';
import type { BiasProbe } from '../../src/shared/protocols/bias-probes/probe-types';
import type { BiasMetrics, ProbeRow } from '../../src/shared/protocols/bias-probes/types';
import {
  clusteredPairedEffect,
  holmAdjust,
  robustnessRate,
  wilcoxonSignedRank,
} from '../../src/shared/stats';
import { tempDir } from './tmp';
import type { PairRecord } from '../mock-provider/bias-responder';
import { startMockProvider, type MockProvider, type MockRequest } from '../mock-provider/server';

export const RECORDS: PairRecord[] = readFileSync(
  join(import.meta.dirname, '../../resources/samples/llmbar.jsonl'),
  'utf8',
)
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as PairRecord);

export const SAMPLE_DATASET = 'LLMBar (sample)';

/** A stable uniform draw per unit (SHA-256: FNV's top bits correlate across draws of one text). */
export function shaUnit(...parts: string[]): number {
  return createHash('sha256').update(parts.join('\u0000')).digest().readUInt32BE(0) / 2 ** 32;
}

/**
 * The bias mock's own draw (FNV-1a). The tests whose planted shares were set against its draws keep
 * it, so the effects they recover (and the thresholds they hold them to) stay the ones they were.
 */
export function fnvUnit(...parts: string[]): number {
  let h = 2166136261;
  for (const c of parts.join('\u0000')) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return h / 2 ** 32;
}

/** The text between `<tag>` and `</tag>` in a prompt (one newline either side dropped); '' if absent. */
export const tagged = (text: string, tag: string): string =>
  new RegExp(`<${tag}>\\n?([\\s\\S]*?)\\n?</${tag}>`).exec(text)?.[1] ?? '';

/** A judge's structured answer as the bias mock gives it: a score (pointwise) or a winner (pairwise). */
export interface Verdict {
  score?: number;
  winner?: 'A' | 'B';
}

/** The planted move: a score one point up (below the scale's top), a verdict to `to`. */
export function plant(answer: Verdict, to: 'A' | 'B' | undefined): void {
  if (answer.score !== undefined && answer.score < 5) answer.score += 1;
  if (answer.winner !== undefined && to !== undefined) answer.winner = to;
}

/** A judge's own noise: the other response, or a score a point up or down (down from the top). */
export function jitter(answer: Verdict, up: boolean): void {
  if (answer.winner !== undefined) answer.winner = answer.winner === 'A' ? 'B' : 'A';
  if (answer.score !== undefined) answer.score += up && answer.score < 5 ? 1 : -1;
}

/** A judge model named `…-null` has nothing planted: its two conditions are exchangeable. */
export const isNullJudge = (model: string) => model.endsWith('-null');

export interface Judge {
  label: string;
  provider: string;
  model: string;
}

/** The usual three: planted in OpenAI's and in Anthropic's wire format, and the null judge. */
export const mockJudges = (prefix: string, nullProvider: 'openai' | 'anthropic'): Judge[] => [
  { label: 'OpenAI judge', provider: 'openai', model: `${prefix}-judge` },
  { label: 'Anthropic judge', provider: 'anthropic', model: `${prefix}-judge-2` },
  { label: 'Null judge', provider: nullProvider, model: `${prefix}-judge-null` },
];

/** A simulated judge with the probe's planted knob (`-bias-<id>80`: 80 % of detected calls), then a plain one. */
export const simJudges = (knob: string, strong = true): Judge[] => [
  { label: 'Planted judge', provider: 'sim', model: `sim-judge-${strong ? 'strong-' : ''}bias-${knob}80` },
  { label: 'Plain judge', provider: 'sim', model: 'sim-judge' },
];

const SIM_PROVIDERS = { sim: { kind: 'simulated', latencyMs: 0, rpm: 60_000, concurrency: 16 } };

/** A keyless bias-probes config on the simulated provider (judges, mode, probes, limit in `extra`). */
export const simConfig = (name: string, extra: Record<string, unknown>) => ({
  name,
  protocol: 'bias-probes',
  dataset: SAMPLE_DATASET,
  providers: SIM_PROVIDERS,
  ...extra,
});

export interface HarnessOptions {
  /** Runs before the core opens (a test-defined probe registers here). */
  before?: () => void;
  /** Runs once the sample is loaded (a test's own data file is imported here). */
  setup?: (core: Core, dir: string) => Promise<void>;
  /** Fields every `mockConfig` of the file carries (limit, judges, probes…), overridable per call. */
  defaults?: Record<string, unknown>;
}

export interface ProbeHarness {
  /** Set once the file's first hook has run. */
  core: Core;
  mock: MockProvider;
  /** The data folder (scratch files may go beside the store). */
  dir: string;
  /** Every request the mock answered, in arrival order. */
  seen: MockRequest[];
  /** A bias-probes config on the sample, judged through the mock in both wire formats. */
  mockConfig(name: string, extra?: Record<string, unknown>): Record<string, unknown>;
  /** Creates the experiment and runs it to the end: finished, no call failed or left pending. */
  run(config: Record<string, unknown>): Promise<{ id: number; metrics: BiasMetrics }>;
  /** The keyless pair of runs (pointwise, pairwise) with the probe's planted knob against a plain judge. */
  simulated(
    probe: string,
    limits: { pointwise: number; pairwise: number },
    extra?: Record<string, unknown>,
  ): Promise<{ pointwise: BiasMetrics; pairwise: BiasMetrics }>;
  /** The Methods in one language. */
  methods(experimentId: number, lang: 'en' | 'zh'): Promise<string>;
  /** The judge's report card as Markdown in one language. */
  cardMarkdown(model: string, lang: 'en' | 'zh'): Promise<string>;
  /** The Methods say the probe's own sentence in English and in 中文 (and `cite`, where given, in both). */
  expectMethods(experimentId: number, probe: BiasProbe, cite?: string): Promise<void>;
}

/**
 * The core (the sample loaded) and the mock answering `respond` for the tests of one file: made
 * before them, its hooks registered where this is called, shut down and removed after them.
 */
export function useProbeHarness(
  respond: (req: MockRequest) => unknown,
  opts: HarnessOptions = {},
): ProbeHarness {
  let cleanup: (() => void) | undefined;
  const h = { seen: [] as MockRequest[] } as ProbeHarness;
  beforeAll(async () => {
    opts.before?.();
    const t = tempDir();
    cleanup = t.cleanup;
    h.dir = t.dir;
    h.core = new Core({
      dataDir: t.dir,
      door: 'cli',
      keys: new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test', MOCK_ANTHROPIC_KEY: 'sk-ant-test' }),
      engine: { progressIntervalMs: 200 },
    });
    await h.core.call('datasets.loadSample', { sampleId: 'llmbar' });
    await opts.setup?.(h.core, t.dir);
    h.mock = await startMockProvider({
      latencyMs: [0, 0],
      respond: (req) => {
        h.seen.push(req);
        return respond(req);
      },
      logBodies: false,
    });
  });
  afterAll(async () => {
    await h.core?.shutdown();
    await h.mock?.close();
    cleanup?.();
  });

  h.mockConfig = (name, extra = {}) => ({
    name,
    protocol: 'bias-probes',
    dataset: SAMPLE_DATASET,
    providers: {
      openai: { kind: 'openai', baseURL: `${h.mock.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY', concurrency: 8 },
      anthropic: { kind: 'anthropic', baseURL: h.mock.url, apiKeyEnv: 'MOCK_ANTHROPIC_KEY', concurrency: 8 },
    },
    ...opts.defaults,
    ...extra,
  });

  h.run = async (config) => {
    const { id } = await h.core.call('experiments.create', { config });
    const final = await h.core.experiments.runToEnd(id);
    expect(final.status).toBe('finished');
    const results = await h.core.call('experiments.results', { experimentId: id });
    expect(results.counts).toMatchObject({ failed: 0, pending: 0 });
    return { id, metrics: results.metrics as BiasMetrics };
  };

  h.simulated = async (probe, limits, extra = {}) => {
    const sim = async (mode: 'pointwise' | 'pairwise') =>
      (
        await h.run(
          simConfig(`${probe}-simulated-${mode}`, {
            limit: limits[mode],
            judges: simJudges(probe),
            mode,
            probes: [probe],
            ...extra,
          }),
        )
      ).metrics;
    return { pointwise: await sim('pointwise'), pairwise: await sim('pairwise') };
  };

  h.methods = async (experimentId, lang) =>
    (await h.core.call('experiments.methods', { experimentId, lang })).markdown;

  // The card the API gives, in the Markdown its file handler writes (`judges.reportCardFile` md is
  // cardMarkdown of this view; test/protocols/test-study checks that call). Not through the file
  // call: it renders the card's every file, and its 中文 PNG, unread here, was ~2 of a probe
  // file's ~11 CPU-s.
  h.cardMarkdown = async (model, lang) =>
    cardMarkdown(cardView(await h.core.call('judges.reportCard', { model }), lang, registryCardText));

  h.expectMethods = async (experimentId, probe, cite) => {
    for (const lang of ['en', 'zh'] as const) {
      const markdown = await h.methods(experimentId, lang);
      expect(markdown).toContain(probe.texts.methods![lang]);
      if (cite) expect(markdown).toContain(cite);
    }
  };

  return h;
}

/** A profile row of one judge and effect over all categories. */
export const rowOf = (m: BiasMetrics, judge: string, effect: string): ProbeRow =>
  m.probes.find((r) => r.category === 'all' && r.judge === judge && r.effect === effect)!;

/** The placebo row of one judge (all categories) for the condition asked again. */
export const placeboOf = (m: BiasMetrics, judge: string, repeated: string) =>
  m.noise_floor!.placebo.find((p) => p.judge === judge && p.category === 'all' && p.repeated === repeated)!;

/** The conditions the noise floor asked again, in order. */
export const placeboConditions = (m: BiasMetrics) => [
  ...new Set(m.noise_floor!.placebo.map((p) => p.repeated)),
];

/** One effect read against its placebo, for one judge (all categories). */
export const excessOf = (m: BiasMetrics, judge: string, effect: string) =>
  m.noise_floor!.excess.find((x) => x.judge === judge && x.category === 'all' && x.effect === effect)!;

/**
 * The units of a paired effect from the mock's log: each variant answer with the base answer to the
 * same request without the perturbation (`key`). First asks only, in either arm: a repeat (the
 * noise floor's) is its placebo, not a unit.
 */
export function pairFromLog<L>(
  log: readonly L[],
  arm: (l: L) => 'variant' | 'base' | null,
  key: (l: L) => string,
): { variant: L; base: L }[] {
  const bases = new Map<string, L>();
  for (const l of log) if (arm(l) === 'base' && !bases.has(key(l))) bases.set(key(l), l);
  const used = new Set<string>();
  const units: { variant: L; base: L }[] = [];
  for (const l of log) {
    const k = key(l);
    const base = bases.get(k);
    if (arm(l) !== 'variant' || !base || used.has(k)) continue;
    used.add(k);
    units.push({ variant: l, base });
  }
  return units;
}

/** Wilcoxon's signed-rank test on the item means of the differences (the item is the unit, DESIGN §1e). */
export function itemMeansWilcoxon(diffs: readonly number[], items: readonly string[]) {
  const byItem = new Map<string, number[]>();
  items.forEach((it, k) => byItem.set(it, [...(byItem.get(it) ?? []), diffs[k]]));
  return wilcoxonSignedRank([...byItem.values()].map((xs) => xs.reduce((a, b) => a + b, 0) / xs.length));
}

/**
 * A pointwise paired-change row against the log: `n` units, and the mean, its clustered interval,
 * Wilcoxon's p (1 when every difference is 0, as the kit's docs say) and the robustness rate with
 * its interval, each as the stats kit computes them from the same differences.
 */
export function expectPointwiseRow(
  row: ProbeRow,
  units: readonly { diff: number; item: string }[],
  n: number,
): void {
  const diffs = units.map((u) => u.diff);
  const items = units.map((u) => u.item);
  expect(row.n).toBe(n);
  expect(diffs).toHaveLength(n);
  const e = clusteredPairedEffect(diffs, items, [-4, 4]);
  expect(row.mean).toBeCloseTo(e.mean, 12);
  expect(row.mean_ci).toEqual(e.ci);
  expect(row.p).toBe(itemMeansWilcoxon(diffs, items)?.p ?? 1);
  expect(row.robustness_rate).toBeCloseTo(diffs.filter((d) => d === 0).length / n, 12);
  expect(row.robustness_rate_ci).toEqual(
    robustnessRate(
      diffs.map((d) => d === 0),
      items,
    ).ci,
  );
}

/**
 * A pairwise paired-change row against the log: the change in the win score of the response the
 * perturbation favours (`target`), the flip rate over the units whose base verdict went the other
 * way, and the robustness rate (the same winner in both conditions).
 */
export function expectPairwiseRow(
  row: ProbeRow,
  units: readonly { variant: 'A' | 'B' | undefined; base: 'A' | 'B' | undefined; target: 'A' | 'B' }[],
  n: number,
): void {
  expect(row.n).toBe(n);
  expect(units).toHaveLength(n);
  const win = (winner: 'A' | 'B' | undefined, target: 'A' | 'B') => (winner === target ? 1 : 0);
  expect(row.mean).toBeCloseTo(
    units.reduce((s, u) => s + win(u.variant, u.target) - win(u.base, u.target), 0) / n,
    12,
  );
  const flippable = units.filter((u) => u.base !== u.target);
  expect(row.flip_n).toBe(flippable.length);
  expect(row.flip_rate).toBeCloseTo(
    flippable.filter((u) => u.variant === u.target).length / flippable.length,
    12,
  );
  expect(row.robustness_rate).toBeCloseTo(units.filter((u) => u.variant === u.base).length / n, 12);
}

/** One Holm family per judge × category: the judge's effects together, each once. */
export function expectHolm(metrics: BiasMetrics, judge: string): void {
  const rows = metrics.probes.filter((r) => r.category === 'all' && r.judge === judge);
  expect(rows.map((r) => r.p_holm)).toEqual(holmAdjust(rows.map((r) => r.p)));
}

/**
 * The keyless runs' common reading: the planted knob's effect recovered and flagged in both modes
 * (a point up on most pointwise units, verdicts turned in pairwise), the plain judge not flagged.
 */
export function expectSimulatedRecovered(
  runs: { pointwise: BiasMetrics; pairwise: BiasMetrics },
  effect: string,
): void {
  expect(rowOf(runs.pointwise, 'Planted judge', effect).mean).toBeGreaterThan(0.3);
  expect(rowOf(runs.pointwise, 'Planted judge', effect).significant).toBe(true);
  expect(rowOf(runs.pointwise, 'Plain judge', effect).significant).toBe(false);
  expect(rowOf(runs.pairwise, 'Planted judge', effect).significant).toBe(true);
  expect(rowOf(runs.pairwise, 'Planted judge', effect).flip_rate!).toBeGreaterThan(0.3);
  expect(rowOf(runs.pairwise, 'Plain judge', effect).significant).toBe(false);
}
