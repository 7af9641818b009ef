// The simulated provider answers reference sensitivity's requests as the protocol renders them:
// a generated answer in the question's script, and correctness verdicts that follow a shown
// reference and are generous without one (so the demo shows over-acceptance and NR→RV flips).
import { describe, expect, it } from 'vitest';
import { resolveRefSensOptions } from '../../../src/main/protocols/reference-sensitivity/config';
import { planGenerate, planJudge } from '../../../src/main/protocols/reference-sensitivity/plan';
import type { QaItem } from '../../../src/main/protocols/reference-sensitivity/qa-item';
import { providerConfigSchema } from '../../../src/main/providers/config';
import { ProviderError } from '../../../src/main/providers/errors';
import { SimulatedChatAdapter } from '../../../src/main/providers/simulated/adapter';
import type { ChatRequestSpec } from '../../../src/main/providers/types';

const adapter = new SimulatedChatAdapter(providerConfigSchema.parse({ kind: 'simulated', latencyMs: 0 }));
const options = resolveRefSensOptions(
  { name: 'x', protocol: 'reference-sensitivity', dataset: 1, providers: {}, judges: [] },
  () => [],
);
const model = (label: string, m: string) => ({ label, provider: 'sim', model: m });

async function send(spec: ChatRequestSpec): Promise<unknown> {
  try {
    return (await adapter.send(spec)).result.json;
  } catch (err) {
    if (err instanceof ProviderError && err.kind === 'unparseable') return null;
    throw err;
  }
}

const items: QaItem[] = Array.from({ length: 60 }, (_, k) => ({
  id: k + 1,
  sourceId: `q${k}`,
  question: k % 2 ? `ما هي عاصمة البلد رقم ${k}؟` : `What is the capital of country number ${k}?`,
  answers: [k % 2 ? `مدينة ${k}` : `City ${k}`],
  language: k % 2 ? 'ar' : 'en',
  context: null,
  category: null,
}));

describe('the simulated provider on reference-sensitivity requests', () => {
  it('answers a generate request in the script of the question', async () => {
    for (const task of planGenerate(items.slice(0, 2), [model('g', 'sim-gen')], options)) {
      const text = (await send(task.request)) as string;
      expect(typeof text).toBe('string');
      const arabic = task.meta.language === 'ar';
      expect(/\p{Script=Arabic}/u.test(text)).toBe(arabic);
    }
  });

  it('accepts answers matching a shown reference, rejects others, and is generous without one', async () => {
    const judge = model('J', 'sim-judge-strong');
    const right = items.map((i) => ({
      generator: 'right',
      sourceId: i.sourceId,
      answer: i.answers[0],
      imported: true,
    }));
    const wrong = items.map((i) => ({
      generator: 'wrong',
      sourceId: i.sourceId,
      answer: 'Nobody knows',
      imported: true,
    }));
    const tasks = planJudge(items, [judge], [...right, ...wrong], options);
    const accepted: Record<string, number[]> = {};
    for (const t of tasks) {
      const v = (await send(t.request)) as {
        verdict: string;
        extracted_answer: string;
        explanation: string;
      } | null;
      if (!v) continue;
      expect(['CORRECT', 'INCORRECT']).toContain(v.verdict);
      expect(v.explanation).toMatch(/\(simulated\)$/);
      const key = `${t.meta.generator} ${t.meta.setting}`;
      (accepted[key] ??= []).push(v.verdict === 'CORRECT' ? 1 : 0);
    }
    const rate = (k: string) => accepted[k].reduce((a, b) => a + b, 0) / accepted[k].length;
    expect(rate('right RV')).toBeGreaterThan(0.85);
    expect(rate('wrong RV')).toBeLessThan(0.15);
    expect(rate('wrong RC')).toBeLessThan(0.15);
    // Without a reference a wrong answer is often accepted: the over-generosity to measure.
    expect(rate('wrong NR')).toBeGreaterThan(0.2);
  });
});
