// The simulated provider's planted position lean (`-first<NN>`), through its adapter with the
// verdict requests Judge-LS really renders: the planted items answer A in both orders, the others
// keep one answer whichever order shows it (up to the rare per-ask noise), and models without the
// suffix are not touched.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TEMPLATES, renderJudgePrompt } from '../../src/main/protocols/judge-ls/prompts';
import { PAIRWISE_VERDICT_SCHEMA } from '../../src/main/judging/pairwise';
import { providerConfigSchema } from '../../src/main/providers/config';
import { ProviderError } from '../../src/main/providers/errors';
import { SimulatedChatAdapter } from '../../src/main/providers/simulated/adapter';
import {
  LEAN_NOISE,
  leanPlanted,
  plantedLeanNoise,
  plantedLeanRate,
} from '../../src/main/providers/simulated/planted-lean';

const cfg = providerConfigSchema.parse({ kind: 'simulated', latencyMs: 0 });
const rows = readFileSync(new URL('../../resources/samples/llmbar.jsonl', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .slice(0, 120)
  .map((l) => JSON.parse(l) as { instruction: string; output_1: string; output_2: string });

/** The winner of one order (null: the rare unparseable answer). */
async function winner(
  adapter: SimulatedChatAdapter,
  model: string,
  instruction: string,
  a: string,
  b: string,
) {
  const p = renderJudgePrompt(DEFAULT_TEMPLATES, { instruction, outputA: a, outputB: b });
  try {
    const r = await adapter.send({
      provider: 'sim',
      model,
      system: p.system,
      messages: [{ role: 'user', content: p.user }],
      temperature: 0,
      response: PAIRWISE_VERDICT_SCHEMA,
    });
    return (r.result.json as { winner: 'A' | 'B' | 'tie' }).winner;
  } catch (err) {
    if (err instanceof ProviderError && err.kind === 'unparseable') return null;
    throw err;
  }
}

/** Both orders of every row: [orig winner, swap winner, planted]. */
async function judgeAll(model: string) {
  const adapter = new SimulatedChatAdapter(cfg);
  return Promise.all(
    rows.map(async (r) => [
      await winner(adapter, model, r.instruction, r.output_1, r.output_2),
      await winner(adapter, model, r.instruction, r.output_2, r.output_1),
      leanPlanted(model, r.output_1, r.output_2),
    ]),
  );
}

describe('the simulated -first<NN> position lean', () => {
  it('reads the share from the model name, and nothing from other names', () => {
    expect(plantedLeanRate('sim-judge-strong-first5')).toBe(0.05);
    expect(plantedLeanRate('sim-judge-first0')).toBe(0);
    expect(plantedLeanRate('sim-judge-first100')).toBe(1);
    expect(plantedLeanRate('sim-judge-strong')).toBeNull();
    expect(plantedLeanRate('sim-judge-strong-flip20')).toBeNull();
    expect(leanPlanted('sim-judge-strong', 'a', 'b')).toBe(false);
  });

  it('picks the planted items from the two answers as a set, so both orders agree', () => {
    for (const r of rows.slice(0, 30))
      expect(leanPlanted('sim-judge-first50', r.output_1, r.output_2)).toBe(
        leanPlanted('sim-judge-first50', r.output_2, r.output_1),
      );
    expect(rows.every((r) => leanPlanted('sim-judge-first100', r.output_1, r.output_2))).toBe(true);
  });

  it('answers A in both orders on the planted items, and one answer in both orders elsewhere', async () => {
    const judged = await judgeAll('sim-judge-strong-first20');
    const planted = judged.filter(([, , p]) => p);
    expect(planted.length).toBeGreaterThan(10);
    for (const [orig, swap] of planted) {
      if (orig !== null) expect(orig).toBe('A');
      if (swap !== null) expect(swap).toBe('A');
    }
    // Off the planted items a kept answer is A then B or B then A; the 0.5 % per-ask noise and
    // the rare tie aside, that is every item.
    const others = judged.filter(([o, s, p]) => !p && o !== null && s !== null && o !== 'tie' && s !== 'tie');
    const kept = others.filter(([o, s]) => o !== s).length;
    expect(kept).toBeGreaterThanOrEqual(others.length - 3);
  });

  it('with the lean off, has no position bias of its own', async () => {
    const judged = await judgeAll('sim-judge-strong-first0');
    expect(judged.some(([, , p]) => p)).toBe(false);
    const decided = judged.filter(([o, s]) => o !== null && s !== null && o !== 'tie' && s !== 'tie');
    const bothA = decided.filter(([o, s]) => o === 'A' && s === 'A').length;
    const bothB = decided.filter(([o, s]) => o === 'B' && s === 'B').length;
    expect(bothA + bothB).toBeLessThanOrEqual(3);
  });

  it('takes a per-ask noise from -noise<NN>, and splits the inconsistent items evenly', async () => {
    expect(plantedLeanRate('sim-judge-first10-noise20')).toBe(0.1);
    expect(plantedLeanNoise('sim-judge-first10-noise20')).toBe(0.2);
    expect(plantedLeanNoise('sim-judge-first10')).toBe(LEAN_NOISE);
    expect(plantedLeanRate('sim-judge-noise20')).toBeNull();
    const judged = await judgeAll('sim-judge-strong-first0-noise25');
    const decided = judged.filter(([o, s]) => o !== null && s !== null && o !== 'tie' && s !== 'tie');
    const bothA = decided.filter(([o, s]) => o === 'A' && s === 'A').length;
    const bothB = decided.filter(([o, s]) => o === 'B' && s === 'B').length;
    // Each ask flips with 25 %: an item is inconsistent with 2 · 0.25 · 0.75 = 37.5 %, about 44 of
    // the ~117 decided items; a 0.5 % noise gave at most 3.
    expect(bothA + bothB).toBeGreaterThan(25);
    expect(bothA + bothB).toBeLessThan(65);
    expect(Math.abs(bothA - bothB)).toBeLessThan(20);
  });
});
