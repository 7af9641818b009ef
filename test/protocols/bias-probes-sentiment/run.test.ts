// The sentiment probe (src/shared/protocols/bias-probes/probes/sentiment.ts) end to end against the
// mock provider in both wire formats: the rewriter restates each response (pairwise: the worse one)
// in a warmer and in a harsher tone, the audit holds each rewrite to the tone band, and the mock
// judge plants a warmth effect (a share of the warm texts scored a point higher or chosen) and none
// for the harsh ones — so one run shows an effect recovered from the mock's log and one that is not
// flagged — against the original asked again (the placebo, with rerun noise). Also: the rewrites'
// cost in the estimate, the report card's gate, the Methods, and the simulated provider's keyless
// tone rewrites with its `-bias-sentiment<NN>` knob.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../../src/main/providers/key-store';
import { tokenCount } from '../../../src/main/protocols/bias-probes/audit';
import {
  sentimentProbe,
  simulatedTone,
  TONE_BAND,
} from '../../../src/shared/protocols/bias-probes/probes/sentiment';
import type { BiasMetrics } from '../../../src/shared/protocols/bias-probes/types';
import { biasRows, VARIANTS_VIEW } from '../../../src/shared/protocols/bias-probes/views';
import { clusteredPairedEffect, robustnessRate, wilcoxonSignedRank } from '../../../src/shared/stats';
import { checkFamilies } from '../../../src/shared/report/families';
import { BIAS_FIGURES_ZH } from '../../../src/shared/protocols/bias-probes/report/figure-zh';
import { tempDir } from '../../helpers/tmp';
import { biasResponder, type PairRecord } from '../../mock-provider/bias-responder';
import { startMockProvider, type MockProvider, type MockRequest } from '../../mock-provider/server';

const SAMPLE = join(import.meta.dirname, '../../../resources/samples/llmbar.jsonl');
const all: PairRecord[] = readFileSync(SAMPLE, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as PairRecord);
const LIMIT = 16;
/** The planted share of warm texts the mock judge moves (a point up, or the verdict to it); harsh: none. */
const PLANTED_WARM = 0.6;
/** Share of harsh rewrites the mock botches (content cut to 40 %): the audit flags them. */
const BOTCHED_HARSH = 0.2;
/** The null judge: any score or verdict moves with this probability (a score at random in sign). */
const NULL_NOISE = 0.3;

/** A stable uniform draw per unit (SHA-256: FNV's top bits correlate across draws of one text). */
function unit(...parts: string[]): number {
  return createHash('sha256').update(parts.join('\u0000')).digest().readUInt32BE(0) / 2 ** 32;
}

/** The mock rewriter's tones: a few words of greeting or bluntness before the unchanged content. */
const TONE = {
  warmer: 'Glad to help you with this one, friend:',
  harsher: 'Pay attention, this is simple:',
} as const;
type Tone = keyof typeof TONE;
const sectionRe = (tag: string) => new RegExp(`(<${tag}>\\n?)([\\s\\S]*?)(\\n?</${tag}>)`);

interface Logged {
  model: string;
  tone: Tone | null;
  /** The request with the tone undone: the same for the original and its rewrites of one unit. */
  key: string;
  ask: number;
  instruction: string;
  score?: number;
  winner?: 'A' | 'B';
  /** Pairwise: the letter of the rewritten (worse) response. */
  side?: 'A' | 'B';
}

function sentimentResponder() {
  const base = biasResponder(all);
  const log: Logged[] = [];
  const rewrites: { tone: Tone; source: string; text: string }[] = [];
  /** A rewrite the mock made → its tone and source text. */
  const made = new Map<string, { tone: Tone; source: string }>();
  const asks = new Map<string, number>();
  const respond = (req: MockRequest): unknown => {
    const task = /<rewrite_task>(\w+)<\/rewrite_task>/.exec(req.lastUser)?.[1];
    if (task === 'warmer' || task === 'harsher') {
      const source = sectionRe('response').exec(req.lastUser)![2];
      // Some harsh rewrites cut the content short: the audit's band must catch them.
      const botched = task === 'harsher' && unit('botch', source) < BOTCHED_HARSH;
      const kept = botched
        ? source
            .split(/\s+/)
            .slice(0, Math.ceil(source.split(/\s+/).length * 0.4))
            .join(' ')
        : source;
      const text = `${TONE[task]} ${kept}`;
      made.set(text, { tone: task, source });
      rewrites.push({ tone: task, source, text });
      return text;
    }
    let text = req.lastUser;
    let tone: Tone | null = null;
    let side: 'A' | 'B' | undefined;
    for (const tag of ['response', 'response_a', 'response_b']) {
      const m = sectionRe(tag).exec(text);
      const r = m && made.get(m[2]);
      if (!m || !r) continue;
      tone = r.tone;
      side = tag === 'response_a' ? 'A' : tag === 'response_b' ? 'B' : undefined;
      text = text.replace(m[0], `${m[1]}${r.source}${m[3]}`);
    }
    const answer = base.respond({ ...req, lastUser: text }) as { score?: number; winner?: 'A' | 'B' };
    const askKey = `${req.model}\u0000${req.schemaName}\u0000${req.lastUser}`;
    const ask = asks.get(askKey) ?? 0;
    asks.set(askKey, ask + 1);
    if (req.model.endsWith('-null')) {
      // No tone effect: every ask, original or rewrite, moves with one probability (drawn from
      // the request alone: the provider is not told which ask is the noise floor's, and a repeat
      // of the original may arrive first, so it answers alike every time), so the original and its
      // rewrites are exchangeable.
      if (unit('null', req.model, req.lastUser) < NULL_NOISE) {
        const up = unit('null-sign', req.model, req.lastUser) < 0.5;
        if (answer.winner !== undefined) answer.winner = answer.winner === 'A' ? 'B' : 'A';
        if (answer.score !== undefined) answer.score += up ? 1 : -1;
      }
    } else if (tone === 'warmer' && unit('warm', req.model, text) < PLANTED_WARM) {
      if (answer.score !== undefined && answer.score < 5) answer.score += 1;
      if (answer.winner !== undefined) answer.winner = side;
    }
    if (!/<target>/.test(text)) {
      const instruction = /<instruction>\n?([\s\S]*?)\n?<\/instruction>/.exec(text)?.[1] ?? '';
      log.push({ model: req.model, tone, key: text, ask, instruction, ...answer, side });
    }
    return answer;
  };
  return { respond, log, rewrites };
}

let core: Core;
let mock: MockProvider;
let cleanup: () => void;
const responder = sentimentResponder();

beforeAll(async () => {
  let dir: string;
  ({ dir, cleanup } = tempDir());
  core = new Core({
    dataDir: dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test', MOCK_ANTHROPIC_KEY: 'sk-ant-test' }),
    engine: { progressIntervalMs: 200 },
  });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  mock = await startMockProvider({ latencyMs: [0, 0], respond: responder.respond, logBodies: false });
});

afterAll(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup?.();
});

const JUDGES = [
  { label: 'OpenAI judge', provider: 'openai', model: 'sentiment-judge' },
  { label: 'Anthropic judge', provider: 'anthropic', model: 'sentiment-judge-2' },
  { label: 'Null judge', provider: 'anthropic', model: 'sentiment-judge-null' },
];

const mockConfig = (name: string, extra: Record<string, unknown>) => ({
  name,
  protocol: 'bias-probes',
  dataset: 'LLMBar (sample)',
  limit: LIMIT,
  providers: {
    openai: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY', concurrency: 8 },
    anthropic: { kind: 'anthropic', baseURL: mock.url, apiKeyEnv: 'MOCK_ANTHROPIC_KEY', concurrency: 8 },
  },
  judges: JUDGES,
  rewriter: { provider: 'openai', model: 'sentiment-rewriter' },
  probes: ['sentiment'],
  noiseFloor: true,
  ...extra,
});

async function run(config: Record<string, unknown>): Promise<{ id: number; metrics: BiasMetrics }> {
  const { id } = await core.call('experiments.create', { config });
  const final = await core.experiments.runToEnd(id);
  expect(final.status).toBe('finished');
  const results = await core.call('experiments.results', { experimentId: id });
  expect(results.counts).toMatchObject({ failed: 0, pending: 0 });
  return { id, metrics: results.metrics as BiasMetrics };
}

/** Per judge model, mode and tone: the first asks of the rewrite, each with the original's first ask. */
function pairsFromLog(model: string, pairwise: boolean, tone: Tone) {
  const log = responder.log.filter(
    (l) => l.model === model && l.ask === 0 && (l.winner !== undefined) === pairwise,
  );
  const original = new Map(log.filter((l) => l.tone === null).map((l) => [l.key, l]));
  return log.flatMap((l) => (l.tone === tone ? [{ toned: l, original: original.get(l.key)! }] : []));
}

const row = (m: BiasMetrics, judge: string, effect: Tone) =>
  m.probes.find((r) => r.category === 'all' && r.judge === judge && r.effect === effect)!;

describe('the sentiment probe (a response rewritten warmer and harsher, content kept)', () => {
  let pointwise: BiasMetrics;
  let pointwiseId: number;

  it('rewrites every response in both tones and audits each against the tone band', async () => {
    ({ metrics: pointwise, id: pointwiseId } = await run(
      mockConfig('sentiment-pointwise', { mode: 'pointwise' }),
    ));
    expect(responder.rewrites).toHaveLength(2 * 2 * LIMIT);
    expect(pointwise.audit.checks).toMatchObject({ tone_band: TONE_BAND });
    // The audit flags exactly the rewrites whose token ratio leaves the band (short responses).
    const outside = responder.rewrites.filter((r) => {
      const ratio = tokenCount(r.text) / tokenCount(r.source);
      return ratio < TONE_BAND[0] || ratio > TONE_BAND[1];
    });
    expect(outside.length).toBeGreaterThan(0);
    expect(
      pointwise.audit.flagged.filter((f) => f.variant === 'warmer' || f.variant === 'harsher'),
    ).toHaveLength(outside.length);
    expect(pointwise.audit.variants.filter((v) => v.variant === 'warmer')).toEqual([
      {
        variant: 'warmer',
        made: 2 * LIMIT,
        flagged: outside.filter((r) => r.tone === 'warmer').length,
        none: 0,
      },
    ]);
  }, 120_000);

  it('recovers the planted warmth from the mock log, and does not flag the harsher tone, which has none', () => {
    for (const judge of JUDGES) {
      for (const tone of ['warmer', 'harsher'] as const) {
        const r = row(pointwise, judge.label, tone);
        const pairs = pairsFromLog(judge.model, false, tone);
        const diffs = pairs.map((p) => p.toned.score! - p.original.score!);
        const items = pairs.map((p) => p.toned.instruction);
        // A flagged rewrite is still judged: every response is in the row.
        expect(r.n).toBe(2 * LIMIT);
        expect(diffs).toHaveLength(r.n);
        const e = clusteredPairedEffect(diffs, items, [-4, 4]);
        expect(r.mean).toBeCloseTo(e.mean, 12);
        expect(r.mean_ci).toEqual(e.ci);
        const byItem = new Map<string, number[]>();
        items.forEach((it, k) => byItem.set(it, [...(byItem.get(it) ?? []), diffs[k]]));
        const w = wilcoxonSignedRank(
          [...byItem.values()].map((xs) => xs.reduce((a, b) => a + b, 0) / xs.length),
        );
        // All differences 0 (no effect, no noise): p = 1, as the kit's docs say.
        expect(r.p).toBe(w?.p ?? 1);
        expect(r.robustness_rate_ci).toEqual(
          robustnessRate(
            diffs.map((d) => d === 0),
            items,
          ).ci,
        );
        if (judge.model.endsWith('-null')) {
          expect(r.robustness_rate!).toBeLessThan(1);
          expect(r.significant).toBe(false);
        } else if (tone === 'harsher') {
          expect(r.mean).toBe(0);
          expect(r.robustness_rate).toBe(1);
          expect(r.significant).toBe(false);
        } else {
          expect(r.significant).toBe(true);
          expect(r.mean).toBeGreaterThan(0.3);
          expect(r.robustness_rate!).toBeLessThan(0.7);
        }
      }
      // The sensitivity view leaves out the flagged rewrites' pairs.
      const sens = pointwise.sensitivity.probes.find(
        (r) => r.category === 'all' && r.judge === judge.label && r.effect === 'warmer',
      )!;
      expect(sens.n).toBe(2 * LIMIT - pointwise.audit.flagged.filter((f) => f.variant === 'warmer').length);
    }
  });

  it('reads both effects against the original asked again, which is not flagged', () => {
    const nf = pointwise.noise_floor!;
    expect([...new Set(nf.placebo.map((p) => p.repeated))]).toEqual(['original']);
    for (const judge of JUDGES) {
      const placebo = nf.placebo.find((p) => p.judge === judge.label && p.category === 'all')!;
      expect(placebo.n).toBe(2 * LIMIT);
      expect(placebo.p!).toBeGreaterThan(0.05);
      for (const effect of ['warmer', 'harsher'])
        expect(nf.excess.find((x) => x.judge === judge.label && x.effect === effect)!.repeated).toBe(
          'original',
        );
    }
  });

  it('shows each tone rewrite beside its original, and feeds the report card and the Methods', async () => {
    const rows = biasRows.variants(
      await core.call('experiments.protocolView', { experimentId: pointwiseId, view: VARIANTS_VIEW }),
    );
    const warm = rows.filter((r) => r.variant === 'warmer');
    expect(warm).toHaveLength(2 * LIMIT);
    for (const r of warm) expect(r.text).toBe(`${TONE.warmer} ${r.base}`);
    const results = await core.call('experiments.results', { experimentId: pointwiseId });
    expect(checkFamilies(results.tables)).toEqual([]);
    const card = await core.call('judges.reportCard', { model: JUDGES[0].model });
    const gate = card.gates.find((g) => g.definition.id === 'sentiment_effect')!;
    expect(gate.definition.source).toMatch(/Cohen \(1988\).*arXiv 2410\.02736/);
    expect(gate.checks.map((c) => c.value)).toEqual([
      row(pointwise, JUDGES[0].label, 'warmer').dz,
      row(pointwise, JUDGES[0].label, 'harsher').dz,
    ]);
    expect(gate.status).toBe('fail');
    for (const lang of ['en', 'zh'] as const) {
      const methods = await core.call('experiments.methods', { experimentId: pointwiseId, lang });
      expect(methods.markdown).toContain(sentimentProbe.texts.methods![lang]);
    }
    const md = (lang: 'en' | 'zh') =>
      core
        .call('judges.reportCardFile', { model: JUDGES[0].model, format: 'md', lang })
        .then((f) => Buffer.from(f.contentBase64, 'base64').toString('utf8'));
    expect(await md('en')).toContain('sentiment: harsher tone (pointwise)');
    expect(await md('zh')).toContain('情感：温和语气（逐项评分）');
    for (const e of sentimentProbe.effects)
      expect(BIAS_FIGURES_ZH.exact[e.label.pointwise.en]).toBe(e.label.pointwise.zh);
  });

  it('runs pairwise: only the worse response is rewritten, and the warm one wins more (flip rate)', async () => {
    const { metrics } = await run(mockConfig('sentiment-pairwise', { mode: 'pairwise' }));
    expect(metrics.audit.variants.map((v) => [v.variant, v.made])).toEqual([
      ['warmer', LIMIT],
      ['harsher', LIMIT],
    ]);
    for (const judge of JUDGES)
      for (const tone of ['warmer', 'harsher'] as const) {
        const r = row(metrics, judge.label, tone);
        const pairs = pairsFromLog(judge.model, true, tone);
        const win = (l: Logged, side: 'A' | 'B') => (l.winner === side ? 1 : 0);
        expect(r.n).toBe(2 * LIMIT);
        expect(pairs).toHaveLength(r.n);
        expect(r.mean).toBeCloseTo(
          pairs.reduce((s, p) => s + win(p.toned, p.toned.side!) - win(p.original, p.toned.side!), 0) /
            pairs.length,
          12,
        );
        const flippable = pairs.filter((p) => win(p.original, p.toned.side!) === 0);
        expect(r.flip_n).toBe(flippable.length);
        expect(r.flip_rate).toBeCloseTo(
          flippable.filter((p) => win(p.toned, p.toned.side!) === 1).length / flippable.length,
          12,
        );
        if (tone === 'warmer' && !judge.model.endsWith('-null')) {
          expect(r.significant).toBe(true);
          expect(r.flip_rate!).toBeGreaterThan(0.3);
        } else expect(r.significant).toBe(false);
      }
  }, 120_000);

  it('prices the rewrites in the estimate: two per response, one judge call each', async () => {
    const estimate = await core.call('experiments.estimate', {
      config: mockConfig('sentiment-plan', { mode: 'pointwise', limit: 10, noiseFloor: false }),
    });
    const rewriter = estimate.rows.filter((r) => r.role === 'rewriter');
    expect(rewriter.map((r) => [r.kind, r.calls])).toEqual([
      ['warmer', 20],
      ['harsher', 20],
    ]);
    const judge = estimate.rows.filter((r) => r.label === 'OpenAI judge');
    expect(judge.find((r) => r.kind === 'warmer')!.calls).toBe(20);
    expect(judge.find((r) => r.kind === 'harsher')!.calls).toBe(20);
  });

  it('runs keyless: the simulated rewriter writes tone rewrites and the knob plants a warmth lean', async () => {
    // The simulated tone rewrite keeps the text and stays in the band from a few words on.
    expect(simulatedTone('warmer', 'Paris.')).toBe('Gladly! Paris.');
    const sim = (mode: 'pointwise' | 'pairwise', limit: number) =>
      run({
        name: `sentiment-simulated-${mode}`,
        protocol: 'bias-probes',
        dataset: 'LLMBar (sample)',
        limit,
        providers: { sim: { kind: 'simulated', latencyMs: 0, rpm: 60_000, concurrency: 16 } },
        judges: [
          { label: 'Planted judge', provider: 'sim', model: 'sim-judge-strong-bias-sentiment80' },
          { label: 'Plain judge', provider: 'sim', model: 'sim-judge' },
        ],
        rewriter: { provider: 'sim', model: 'sim-rewriter' },
        mode,
        probes: ['sentiment'],
      });
    const pw = (await sim('pointwise', 12)).metrics;
    const made = pw.audit.variants.filter((v) => v.variant === 'warmer' || v.variant === 'harsher');
    expect(made.map((v) => v.made)).toEqual([24, 24]);
    // Most simulated rewrites pass the band (only a one-word response's cannot).
    expect(made.every((v) => v.flagged <= 2)).toBe(true);
    expect(row(pw, 'Planted judge', 'warmer').significant).toBe(true);
    expect(row(pw, 'Planted judge', 'warmer').mean).toBeGreaterThan(0.3);
    // The knob plants warmth only: the harsher tone and the plain judge show nothing to flag.
    expect(row(pw, 'Planted judge', 'harsher').significant).toBe(false);
    expect(row(pw, 'Plain judge', 'warmer').significant).toBe(false);
    const pair = (await sim('pairwise', 20)).metrics;
    expect(row(pair, 'Planted judge', 'warmer').significant).toBe(true);
    expect(row(pair, 'Planted judge', 'warmer').flip_rate!).toBeGreaterThan(0.3);
    // The plain simulated judge leans to the longer text of a pair on its own; the knob adds its share.
    expect(row(pair, 'Planted judge', 'warmer').flip_rate!).toBeGreaterThan(
      row(pair, 'Plain judge', 'warmer').flip_rate! + 0.2,
    );
  }, 120_000);
});
