// The simulated provider's knobs for the end-to-end validation (issue 33): the planted truth the
// bench derives must be what the judge does, answer by answer, on LLMBar's own texts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../shared/random';
import type { ChatRequestSpec } from '../types';
import { pseudoTranslate } from './pseudo-language';
import { languageFlipPlanted, languageKey, plantedLanguageVerdict } from './planted-language';
import { plantedBias } from './planted-bias';
import { plantedLeanNoise, plantedLeanRate } from './planted-lean';
import { lengthPlanted, plantedLengthNoise, plantedLengthRate, plantedLengthScore } from './planted-length';
import { simulatedRewrite } from './rewrite-and-score';
import { plantedQuality, plantedQualityNoise, plantedQualityScore } from './planted-quality';
import { seedOf } from './random';

const items = readFileSync(join(__dirname, '../../../../resources/samples/llmbar.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .slice(0, 60)
  .map((l) => JSON.parse(l) as { instruction: string; output_1: string; output_2: string });

const pairwise = (model: string, instruction: string, a: string, b: string): ChatRequestSpec => ({
  provider: 'sim',
  model,
  messages: [
    {
      role: 'user',
      content: `<instruction>\n${instruction}\n</instruction>\n\n<response_a>\n${a}\n</response_a>\n\n<response_b>\n${b}\n</response_b>`,
    },
  ],
  response: { name: 'pairwise_verdict', schema: {} },
});
const zh = (t: string) => pseudoTranslate(t, 'zh');
const winner = (spec: ChatRequestSpec) => plantedLanguageVerdict(spec, mulberry32(1))!.winner as string;
/** The answer chosen (1 or 2), whichever is shown first; null for a tie. */
const chosen = (w: string, swapped: boolean) => (w === 'tie' ? null : (w === 'A') !== swapped ? 1 : 2);

describe('planted language flips (-lang<NN>)', () => {
  it("an answer's key is the same in English and in its pseudo-Chinese, careless numbers included", () => {
    for (const it of items) {
      expect(languageKey(zh(it.output_1))).toBe(languageKey(it.output_1));
      expect(languageKey(zh(it.output_1).replace(/\d+/g, '几'))).toBe(languageKey(it.output_1));
    }
  });

  it('keeps one answer in both languages and orders, and takes the other in Chinese exactly on planted items', () => {
    const model = 'sim-judge-strong-t-lang30';
    let planted = 0;
    for (const it of items) {
      const flips = languageFlipPlanted(model, it.output_1, it.output_2);
      if (flips) planted++;
      const en = [false, true].map((s) =>
        chosen(
          winner(
            pairwise(
              model,
              it.instruction,
              ...((s ? [it.output_2, it.output_1] : [it.output_1, it.output_2]) as [string, string]),
            ),
          ),
          s,
        ),
      );
      const cn = [false, true].map((s) =>
        chosen(
          winner(
            pairwise(
              model,
              zh(it.instruction),
              ...((s ? [zh(it.output_2), zh(it.output_1)] : [zh(it.output_1), zh(it.output_2)]) as [
                string,
                string,
              ]),
            ),
          ),
          s,
        ),
      );
      expect(en[0]).toBe(en[1]);
      expect(cn[0] === en[0], JSON.stringify({ en, cn, flips })).toBe(!flips);
      // The planted draw reads the answers as a set, in either language.
      expect(languageFlipPlanted(model, zh(it.output_2), zh(it.output_1))).toBe(flips);
    }
    expect(planted).toBeGreaterThan(8);
    expect(planted).toBeLessThan(30);
  });
});

describe('planted length effect (-long<NN>)', () => {
  it('scores the middle, and the longer variant one point more exactly on planted responses', () => {
    const model = 'sim-judge-strong-t-long40';
    const score = (response: string) =>
      plantedLengthScore(
        {
          provider: 'sim',
          model,
          messages: [
            {
              role: 'user',
              content: `<scale>1-5</scale>\n<instruction>\nq\n</instruction>\n<response>\n${response}\n</response>`,
            },
          ],
          response: { name: 'score_verdict', schema: {} },
        },
        mulberry32(2),
      )!.score as number;
    let planted = 0;
    for (const it of items) {
      const longer = simulatedRewrite('longer', new Map([['response', it.output_1]]), mulberry32(3));
      const bump = lengthPlanted(model, it.output_1);
      if (bump) planted++;
      expect(lengthPlanted(model, longer)).toBe(bump);
      expect(score(it.output_1)).toBe(3);
      expect(score(longer) - score(it.output_1)).toBe(bump ? 1 : 0);
    }
    expect(planted).toBeGreaterThan(12);
    expect(planted).toBeLessThan(36);
  });
});

describe('planted quality (-quality<NN>)', () => {
  const scoreSpec = (model: string, response: string): ChatRequestSpec => ({
    provider: 'sim',
    model,
    messages: [
      {
        role: 'user',
        content: `<scale>1-5</scale>\n<instruction>\nq\n</instruction>\n<response>\n${response}\n</response>`,
      },
    ],
    response: { name: 'score_verdict', schema: {} },
  });
  const texts = items.flatMap((it) => [it.output_1, it.output_2]);

  it('scores each response its planted quality, the one people read from the same text', () => {
    const model = 'sim-judge-strong-t-quality0';
    const seen = new Set<number>();
    for (const text of texts) {
      const q = plantedQuality(model, text, 5);
      seen.add(q);
      // Whatever the ask's draw: no noise, the quality; and the text as people see it, trimmed.
      expect(plantedQualityScore(scoreSpec(model, text), mulberry32(texts.indexOf(text)))!.score).toBe(q);
      expect(plantedQuality(model, `  ${text}\n`, 5)).toBe(q);
    }
    expect([...seen].sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('gives a uniform score instead on the planted share of asks, and -quality100 on every ask', () => {
    const agree = (model: string) => {
      let same = 0;
      let asks = 0;
      for (const text of texts)
        for (let k = 0; k < 10; k++, asks++) {
          const s = plantedQualityScore(scoreSpec(model, text), mulberry32(seedOf(text, String(k))))!.score;
          if (s === plantedQuality(model, text, 5)) same++;
        }
      return same / asks;
    };
    // P(score = quality) = 1 − e + e/5: 0.76 at e = 0.3, 0.2 at e = 1 (1,200 asks: SE ≤ 0.013).
    expect(agree('sim-judge-strong-t-quality30')).toBeGreaterThan(0.76 - 0.05);
    expect(agree('sim-judge-strong-t-quality30')).toBeLessThan(0.76 + 0.05);
    expect(Math.abs(agree('sim-judge-strong-t-quality100') - 0.2)).toBeLessThan(0.05);
    expect(plantedQualityNoise('sim-judge-strong-t-long30')).toBeNull();
  });
});

describe('a -bias-<probe><NN> knob on the lean and length judges (bench/validate-e2e/probes.ts)', () => {
  it('keeps the judge underneath: its rate and noise read as without the knob, the knob read beside them', () => {
    expect(plantedLeanRate('sim-judge-strong-rx-first0-noise0-bias-crowd50')).toBe(0);
    expect(plantedLeanNoise('sim-judge-strong-rx-first0-noise20-bias-crowd50')).toBe(0.2);
    expect(plantedLengthRate('sim-judge-strong-rx-long0-noise20-bias-score_order20')).toBe(0);
    expect(plantedLengthNoise('sim-judge-strong-rx-long0-noise20-bias-score_order20')).toBe(0.2);
    expect(plantedBias('sim-judge-strong-rx-long0-noise20-bias-score_order20')).toEqual({
      probe: 'score_order',
      rate: 0.2,
    });
    // The knob alone is not a lean or length judge.
    expect(plantedLeanRate('sim-judge-bias-crowd50')).toBeNull();
    expect(plantedLengthRate('sim-judge-bias-crowd50')).toBeNull();
  });
});
