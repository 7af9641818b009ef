// The simulated provider's planted instability (a model named `…-flip<NN>`), asked directly
// through its adapter: every repeat of a question starts from one base answer and flips it with
// probability NN %, so the share of repeats that differ from the base recovers NN % within
// 3.5 SE; scores move by one point and stay on the scale; other models are untouched.
import { describe, expect, it } from 'vitest';
import { PAIRWISE_VERDICT_SCHEMA } from '../../../src/main/judging/pairwise';
import { SCORE_VERDICT_SCHEMA } from '../../../src/main/judging/score';
import { inlineTag, sections } from '../../../src/main/judging/template';
import { plantedFlipRate } from '../../../src/main/providers/simulated/planted-flip';
import { SimulatedChatAdapter } from '../../../src/main/providers/simulated/adapter';
import type { ChatRequestSpec } from '../../../src/main/providers/types';

const adapter = new SimulatedChatAdapter({ kind: 'simulated', latencyMs: 0 });
const ASKS = 400;

function pairSpec(model: string, i: number, sample: number): ChatRequestSpec {
  return {
    provider: 'sim',
    model,
    system: 'Judge.',
    messages: [
      {
        role: 'user',
        content: sections([
          ['instruction', `Name a colour, question ${i}.`],
          ['response_a', 'Blue.'],
          ['response_b', `A colour is a property of light number ${i}, for instance red.`],
        ]),
      },
    ],
    temperature: 1,
    response: PAIRWISE_VERDICT_SCHEMA,
    ...(sample ? { sample } : {}),
  };
}

/** The answer's JSON; null for the simulated share of unparseable answers (the provider throws). */
async function ask(spec: ChatRequestSpec): Promise<Record<string, unknown> | null> {
  try {
    const r = await adapter.send(spec);
    return r.result.json as Record<string, unknown>;
  } catch (e) {
    if ((e as { kind?: string }).kind === 'unparseable') return null;
    throw e;
  }
}

describe('planted repeat flips in the simulated provider', () => {
  it('reads the rate from the model name only', () => {
    expect(plantedFlipRate('sim-judge-strong-flip25')).toBe(0.25);
    expect(plantedFlipRate('sim-judge-flip5')).toBe(0.05);
    expect(plantedFlipRate('sim-judge-strong')).toBeNull();
    expect(plantedFlipRate('flip25-judge')).toBeNull();
  });

  it('flips a pairwise base verdict with the planted probability', async () => {
    let differ = 0;
    let n = 0;
    for (let i = 0; i < 40; i++) {
      const base = await ask(pairSpec('sim-judge-flip30', i, 0));
      for (let sample = 1; sample <= ASKS / 40; sample++) {
        const again = await ask(pairSpec('sim-judge-flip30', i, sample));
        if (!base || !again) continue;
        n++;
        if (again.winner !== base.winner) differ++;
      }
    }
    // Two asks (both possibly flipped) differ with probability 2p(1 − p) = 0.42.
    const expected = 2 * 0.3 * 0.7;
    const se = Math.sqrt((expected * (1 - expected)) / n);
    expect(Math.abs(differ / n - expected)).toBeLessThan(3.5 * se);
  });

  it('moves a score by one point on its scale', async () => {
    const spec = (sample: number): ChatRequestSpec => ({
      provider: 'sim',
      model: 'sim-judge-flip50',
      system: 'Rate.',
      messages: [
        {
          role: 'user',
          content: `${inlineTag('scale', '1-5')}\n${sections([
            ['instruction', 'Say hello.'],
            ['response', 'Hello there, friend.'],
          ])}`,
        },
      ],
      response: SCORE_VERDICT_SCHEMA,
      ...(sample ? { sample } : {}),
    });
    const scores: number[] = [];
    for (let s = 0; s < 60; s++) {
      const a = await ask(spec(s));
      if (a) scores.push(a.score as number);
    }
    const distinct = [...new Set(scores)].sort();
    expect(distinct.length).toBeGreaterThan(1);
    expect(Math.max(...distinct) - Math.min(...distinct)).toBeLessThanOrEqual(2);
    expect(scores.every((s) => s >= 1 && s <= 5)).toBe(true);
  });

  it('leaves models without the suffix as they were: repeats of a score never move', async () => {
    const spec = (sample: number): ChatRequestSpec => ({
      provider: 'sim',
      model: 'sim-judge',
      system: 'Rate.',
      messages: [
        { role: 'user', content: `${inlineTag('scale', '1-5')}\n${sections([['response', 'Hi.']])}` },
      ],
      response: SCORE_VERDICT_SCHEMA,
      ...(sample ? { sample } : {}),
    });
    const scores = new Set<unknown>();
    for (let s = 0; s < 20; s++) scores.add((await ask(spec(s)))?.score ?? 'unparseable');
    scores.delete('unparseable');
    expect(scores.size).toBe(1);
  });
});
