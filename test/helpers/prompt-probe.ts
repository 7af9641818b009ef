// What the tests of the prompt probes (bandwagon, refinement, identity: a note appended to the
// judge's message, read against a neutral twin) share: a core with the LLMBar sample, the mock
// provider answering as the bias mock with the probe's effect planted where the test reads the
// probe's note, every noted answer logged, and the recomputation of a profile row from that log
// (mean, interval, Wilcoxon, RR, flip rate) to compare with the kit's. Each probe's test says how
// its notes read; nothing here knows a probe.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import type { BiasMetrics, ProbeRow } from '../../src/shared/protocols/bias-probes/types';
import {
  clusteredPairedEffect,
  holmAdjust,
  robustnessRate,
  wilcoxonSignedRank,
} from '../../src/shared/stats';
import { tempDir } from './tmp';
import { biasResponder, type PairRecord } from '../mock-provider/bias-responder';
import { startMockProvider, type MockProvider, type MockRequest } from '../mock-provider/server';

const SAMPLE = join(import.meta.dirname, '../../resources/samples/llmbar.jsonl');
export const RECORDS: PairRecord[] = readFileSync(SAMPLE, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as PairRecord);

/** The planted share of noted units a variant note moves: a point up, or the verdict to the worse response. */
export const PLANTED = 0.5;
/** A null judge's own noise: each request (either arm) moved with this probability, independently. */
const NULL_NOISE = 0.3;

/** What the test reads in a request's last paragraph: the effect, and the note's arm. */
export interface NoteReading {
  effect: string;
  arm: 'variant' | 'base';
}

export interface Logged {
  model: string;
  effect: string;
  arm: 'variant' | 'base';
  /** The request without its note: the same for the variant and the base ask of one unit. */
  key: string;
  instruction: string;
  score?: number;
  winner?: 'A' | 'B';
  /** Pairwise: the letter the worse (non-gold) response is shown under, from the dataset. */
  worse?: 'A' | 'B';
}

function unit(...parts: string[]): number {
  let h = 2166136261;
  for (const c of parts.join('\u0000')) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return h / 2 ** 32;
}

const tagged = (text: string, tag: string) =>
  new RegExp(`<${tag}>\\n?([\\s\\S]*?)\\n?</${tag}>`).exec(text)?.[1] ?? '';

/** The letter the worse response is shown under, found from the dataset (not from the probe). */
function worseLetter(user: string): 'A' | 'B' {
  const instruction = tagged(user, 'instruction');
  const a = tagged(user, 'response_a');
  const r = RECORDS.find((x) => x.instruction === instruction && (x.output_1 === a || x.output_2 === a))!;
  const aIsBetter = (r.label === 1 ? r.output_1 : r.output_2) === a;
  return aIsBetter ? 'B' : 'A';
}

/**
 * The core and the mock for one test file. Judges whose model ends in `-null` get no planted
 * effect, only noise alike in both arms (the effect off); the others move PLANTED of the
 * variant-noted units: pointwise +1 below the top, pairwise the verdict to the worse response.
 */
export function usePromptProbeRun(read: (lastParagraph: string) => NoteReading | null) {
  const base = biasResponder(RECORDS);
  const log: Logged[] = [];
  const seen: MockRequest[] = [];
  const respond = (req: MockRequest): unknown => {
    seen.push(req);
    const answer = base.respond(req) as { score?: number; winner?: 'A' | 'B' };
    const text = req.lastUser;
    const at = text.lastIndexOf('\n\n');
    const note = at < 0 ? null : read(text.slice(at + 2));
    if (!note || (answer.score === undefined && answer.winner === undefined)) return answer;
    const key = text.slice(0, at);
    const worse = answer.winner !== undefined ? worseLetter(text) : undefined;
    if (req.model.endsWith('-null')) {
      if (unit('null', req.model, note.arm, text) < NULL_NOISE) {
        if (answer.score !== undefined)
          answer.score += unit('sign', req.model, note.arm, text) < 0.5 && answer.score < 5 ? 1 : -1;
        else answer.winner = answer.winner === 'A' ? 'B' : 'A';
      }
    } else if (note.arm === 'variant' && unit('planted', note.effect, req.model, key) < PLANTED) {
      if (answer.score !== undefined && answer.score < 5) answer.score += 1;
      if (answer.winner !== undefined) answer.winner = worse;
    }
    log.push({
      model: req.model,
      effect: note.effect,
      arm: note.arm,
      key,
      instruction: tagged(text, 'instruction'),
      score: answer.score,
      winner: answer.winner,
      worse,
    });
    return answer;
  };

  const ctx = { core: undefined as unknown as Core, mock: undefined as unknown as MockProvider, dir: '' };
  let cleanup: () => void;
  beforeAll(async () => {
    ({ dir: ctx.dir, cleanup } = tempDir());
    ctx.core = new Core({
      dataDir: ctx.dir,
      door: 'cli',
      keys: new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test', MOCK_ANTHROPIC_KEY: 'sk-ant-test' }),
      engine: { progressIntervalMs: 200 },
    });
    await ctx.core.call('datasets.loadSample', { sampleId: 'llmbar' });
    ctx.mock = await startMockProvider({ latencyMs: [0, 0], respond, logBodies: false });
  });
  afterAll(async () => {
    await ctx.core?.shutdown();
    await ctx.mock?.close();
    cleanup?.();
  });

  const mockConfig = (name: string, limit: number, judges: object[], extra: Record<string, unknown>) => ({
    name,
    protocol: 'bias-probes',
    dataset: 'LLMBar (sample)',
    limit,
    providers: {
      openai: { kind: 'openai', baseURL: `${ctx.mock.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY', concurrency: 8 },
      anthropic: {
        kind: 'anthropic',
        baseURL: ctx.mock.url,
        apiKeyEnv: 'MOCK_ANTHROPIC_KEY',
        concurrency: 8,
      },
    },
    judges,
    ...extra,
  });

  const simConfig = (name: string, probe: string, mode: 'pointwise' | 'pairwise', limit: number) => ({
    name,
    protocol: 'bias-probes',
    dataset: 'LLMBar (sample)',
    limit,
    providers: { sim: { kind: 'simulated', latencyMs: 0, rpm: 60_000, concurrency: 16 } },
    judges: [
      // The probe's `detect` names the calls the knob moves: 80 % of the variant-noted ones.
      { label: 'Planted judge', provider: 'sim', model: `sim-judge-strong-bias-${probe}80` },
      { label: 'Plain judge', provider: 'sim', model: 'sim-judge' },
    ],
    mode,
    probes: [probe],
    noiseFloor: true,
  });

  async function run(config: Record<string, unknown>): Promise<{ id: number; metrics: BiasMetrics }> {
    const { id } = await ctx.core.call('experiments.create', { config });
    const final = await ctx.core.experiments.runToEnd(id);
    expect(final.status).toBe('finished');
    const results = await ctx.core.call('experiments.results', { experimentId: id });
    expect(results.counts).toMatchObject({ failed: 0, pending: 0 });
    return { id, metrics: results.metrics as BiasMetrics };
  }

  /** The log's variant − base units of one judge model and effect (first asks; a repeat answers alike). */
  function units(model: string, effect: string, pairwise: boolean) {
    const mine = log.filter(
      (l) => l.model === model && l.effect === effect && (l.winner !== undefined) === pairwise,
    );
    const bases = new Map<string, Logged>();
    for (const l of mine) if (l.arm === 'base' && !bases.has(l.key)) bases.set(l.key, l);
    const seenKeys = new Set<string>();
    const pairs: [Logged, Logged][] = [];
    for (const l of mine) {
      const b = bases.get(l.key);
      if (l.arm !== 'variant' || !b || seenKeys.has(l.key)) continue;
      seenKeys.add(l.key);
      pairs.push([l, b]);
    }
    return pairs;
  }

  /** A pointwise profile row against the log: mean, interval, Wilcoxon, RR; planted or not. */
  function checkPointwiseRow(row: ProbeRow, model: string, n: number) {
    const pairs = units(model, row.effect, false);
    const diffs = pairs.map(([v, b]) => v.score! - b.score!);
    const items = pairs.map(([v]) => v.instruction);
    expect(row.n).toBe(n);
    expect(diffs).toHaveLength(n);
    const e = clusteredPairedEffect(diffs, items, [-4, 4]);
    expect(row.mean).toBeCloseTo(e.mean, 12);
    expect(row.mean_ci).toEqual(e.ci);
    const byItem = new Map<string, number[]>();
    items.forEach((it, k) => byItem.set(it, [...(byItem.get(it) ?? []), diffs[k]]));
    const w = wilcoxonSignedRank(
      [...byItem.values()].map((xs) => xs.reduce((a, b) => a + b, 0) / xs.length),
    )!;
    expect(row.p).toBe(w.p);
    expect(row.robustness_rate).toBeCloseTo(diffs.filter((d) => d === 0).length / n, 12);
    expect(row.robustness_rate_ci).toEqual(
      robustnessRate(
        diffs.map((d) => d === 0),
        items,
      ).ci,
    );
    if (model.endsWith('-null')) expect(row.significant).toBe(false);
    else {
      // +1 on half the noted responses below the top of the scale.
      expect(row.significant).toBe(true);
      expect(row.mean).toBeGreaterThan(0.25);
      expect(row.mean).toBeLessThan(0.7);
      expect(row.mean_ci![0]).toBeGreaterThan(0);
    }
  }

  /** A pairwise profile row against the log: the worse response's win score change, flip rate, RR. */
  function checkPairwiseRow(row: ProbeRow, model: string, n: number) {
    const pairs = units(model, row.effect, true);
    expect(row.n).toBe(n);
    expect(pairs).toHaveLength(n);
    const win = (l: Logged) => (l.winner === l.worse ? 1 : 0);
    const diffs = pairs.map(([v, b]) => win(v) - win(b));
    expect(row.mean).toBeCloseTo(diffs.reduce((a, b) => a + b, 0) / n, 12);
    const flippable = pairs.filter(([, b]) => b.winner !== b.worse);
    expect(row.flip_n).toBe(flippable.length);
    expect(row.flip_rate).toBeCloseTo(
      flippable.filter(([v]) => v.winner === v.worse).length / flippable.length,
      12,
    );
    expect(row.robustness_rate).toBeCloseTo(pairs.filter(([v, b]) => v.winner === b.winner).length / n, 12);
    if (model.endsWith('-null')) expect(row.significant).toBe(false);
    else {
      expect(row.significant).toBe(true);
      expect(row.flip_rate).toBeGreaterThan(0.3);
      expect(row.mean_ci![0]).toBeGreaterThan(0);
    }
  }

  /** One family per judge × category: the probe's effects together, each once. */
  function checkHolm(metrics: BiasMetrics, judge: string) {
    const rows = metrics.probes.filter((r) => r.category === 'all' && r.judge === judge);
    expect(rows.map((r) => r.p_holm)).toEqual(holmAdjust(rows.map((r) => r.p)));
  }

  return { ctx, log, seen, run, mockConfig, simConfig, checkPointwiseRow, checkPairwiseRow, checkHolm };
}
