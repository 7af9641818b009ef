// The simulated provider through its adapter, with the requests the Judge-LS protocol really
// renders (the test may use the protocol; the provider itself never does).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TEMPLATES,
  LANGUAGE_VARIANT_SCHEMA,
  renderJudgePrompt,
  renderTransformPrompt,
} from './prompts';
import { CORRECTNESS_VERDICT_SCHEMA } from '../../judging/correctness';
import { PAIRWISE_VERDICT_SCHEMA } from '../../judging/pairwise';
import { providerConfigSchema } from '../../providers/config';
import { ProviderError } from '../../providers/errors';
import { createAdapter } from '../../providers/index';
import { schemaViolation } from '../../providers/structured';
import type { ChatRequestSpec, ResponseSchema } from '../../providers/types';
import { SimulatedChatAdapter } from '../../providers/simulated/adapter';

const cfg = providerConfigSchema.parse({ kind: 'simulated', latencyMs: 0 });

interface Row {
  id: string;
  subset: string;
  instruction: string;
  output_1: string;
  output_2: string;
  label: 1 | 2;
}
const rows: Row[] = readFileSync(
  new URL('../../../../resources/samples/llmbar.jsonl', import.meta.url),
  'utf8',
)
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Row);

function transformSpec(row: Row, language: 'ZH' | 'LS'): ChatRequestSpec {
  const p = renderTransformPrompt(DEFAULT_TEMPLATES, language, {
    instruction: row.instruction,
    output1: row.output_1,
    output2: row.output_2,
  });
  return {
    provider: 'sim',
    model: 'sim-transformer',
    system: p.system,
    messages: [{ role: 'user', content: p.user }],
    temperature: 0,
    response: LANGUAGE_VARIANT_SCHEMA,
  };
}

function judgeSpec(model: string, instruction: string, a: string, b: string): ChatRequestSpec {
  const p = renderJudgePrompt(DEFAULT_TEMPLATES, { instruction, outputA: a, outputB: b });
  return {
    provider: 'sim',
    model,
    system: p.system,
    messages: [{ role: 'user', content: p.user }],
    temperature: 0,
    response: PAIRWISE_VERDICT_SCHEMA,
  };
}

/** The answer, or null when the simulated model gave an unparseable one (as it rarely does). */
async function answer(spec: ChatRequestSpec, adapter = new SimulatedChatAdapter(cfg)) {
  try {
    return (await adapter.send(spec)).result;
  } catch (err) {
    if (err instanceof ProviderError && err.kind === 'unparseable') return null;
    throw err;
  }
}

const NUMBERS = (s: string) => (s.match(/\d+(\.\d+)?/g) ?? []).sort();
const HAN = /\p{Script=Han}/u;

describe('the simulated provider', () => {
  it('is what the adapter factory builds for kind "simulated", with no key', async () => {
    const adapter = createAdapter(cfg, '');
    expect(adapter).toBeInstanceOf(SimulatedChatAdapter);
  });

  it('answers the same request the same way, in a fresh process state too', async () => {
    const specs = rows.slice(0, 20).map((r) => judgeSpec('sim-judge', r.instruction, r.output_1, r.output_2));
    const first = await Promise.all(specs.map((s) => answer(s)));
    const again = await Promise.all(specs.map((s) => answer(s)));
    expect(again).toEqual(first);
    // Different requests do not all get one answer.
    expect(new Set(first.map((r) => r?.text)).size).toBeGreaterThan(5);
  });

  it('waits about the configured latency before answering', async () => {
    const slow = new SimulatedChatAdapter(providerConfigSchema.parse({ kind: 'simulated', latencyMs: 200 }));
    const t0 = Date.now();
    await answer(judgeSpec('sim-judge', 'Say hi.', 'hi', 'hello there'), slow);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(70);
  });

  it('translates into visibly Chinese text that keeps every number and stays valid', async () => {
    let checked = 0;
    for (const row of rows.slice(0, 40)) {
      const r = await answer(transformSpec(row, 'ZH'));
      if (!r) continue;
      expect(schemaViolation(LANGUAGE_VARIANT_SCHEMA, r.json)).toBeNull();
      const v = r.json as { instruction: string; output_1: string; output_2: string };
      for (const [en, zh] of [
        [row.instruction, v.instruction],
        [row.output_1, v.output_1],
        [row.output_2, v.output_2],
      ]) {
        if (!/[A-Za-z]/.test(en)) continue;
        expect(zh).toMatch(HAN);
        expect(zh).not.toEqual(en);
        // Prose words are gone (code spans and URLs may keep some Latin text).
        if (!/`|https?:/.test(en)) expect(zh.match(/[A-Za-z]{4,}/g) ?? []).toHaveLength(0);
      }
      // The rare careless translation drops one field's numbers; the others keep them all.
      const kept = [
        [row.instruction, v.instruction],
        [row.output_1, v.output_1],
        [row.output_2, v.output_2],
      ].filter(([en, zh]) => NUMBERS(en).join() === NUMBERS(zh).join()).length;
      expect(kept).toBeGreaterThanOrEqual(2);
      checked++;
    }
    expect(checked).toBeGreaterThan(35);
  });

  it('code-switches for LS: Chinese sentences that keep some English terms', async () => {
    const row = rows.find((r) => r.output_1.length > 400)!;
    const r = await answer(transformSpec(row, 'LS'));
    const v = r!.json as { output_1: string };
    expect(v.output_1).toMatch(HAN);
    expect(v.output_1).toMatch(/[A-Za-z]{6,}/);
  });

  it.each(['sim-judge-strong', 'sim-judge'])(
    'judges LLMBar pairs like a real judge (%s): better than chance, position bias, some flips',
    async (model) => {
      const sample = rows.slice(0, 200);
      let correct = 0;
      let valid = 0;
      let aWins = 0;
      let flips = 0;
      let pairs = 0;
      const zh = new Map<string, { instruction: string; output_1: string; output_2: string }>();
      for (const row of sample) {
        const t = await answer(transformSpec(row, 'ZH'));
        if (t) zh.set(row.id, t.json as { instruction: string; output_1: string; output_2: string });
      }
      for (const row of sample) {
        const orig = await answer(judgeSpec(model, row.instruction, row.output_1, row.output_2));
        const swap = await answer(judgeSpec(model, row.instruction, row.output_2, row.output_1));
        for (const [r, order] of [
          [orig, 'orig'],
          [swap, 'swap'],
        ] as const) {
          if (!r) continue;
          const w = (r.json as { winner: string }).winner;
          expect(schemaViolation(PAIRWISE_VERDICT_SCHEMA, r.json)).toBeNull();
          valid++;
          if (w === 'A') aWins++;
          const choice = w === 'tie' ? 0 : (w === 'A') === (order === 'orig') ? 1 : 2;
          if (choice === row.label) correct++;
        }
        const v = zh.get(row.id);
        if (!orig || !v) continue;
        const target = await answer(judgeSpec(model, v.instruction, v.output_1, v.output_2));
        if (!target) continue;
        pairs++;
        if ((target.json as { winner: string }).winner !== (orig.json as { winner: string }).winner) flips++;
      }
      const accuracy = correct / valid;
      expect(accuracy).toBeGreaterThan(0.55);
      expect(accuracy).toBeLessThan(0.9);
      expect(aWins / valid).toBeGreaterThan(0.5);
      expect(flips / pairs).toBeGreaterThan(0.03);
      expect(flips / pairs).toBeLessThan(0.4);
    },
  );

  it('gives rare unparseable answers, which carry the raw text for the ledger', async () => {
    const adapter = new SimulatedChatAdapter(cfg);
    let broken = 0;
    const n = 400;
    for (const row of rows.slice(0, n)) {
      try {
        await adapter.send(judgeSpec('sim-judge', row.instruction, row.output_2, row.output_1));
      } catch (err) {
        expect(err).toBeInstanceOf(ProviderError);
        expect((err as ProviderError).kind).toBe('unparseable');
        expect((err as ProviderError).rawText).toBeTruthy();
        broken++;
      }
    }
    expect(broken).toBeGreaterThan(0);
    expect(broken / n).toBeLessThan(0.05);
  });

  it('answers an unknown schema with a valid object built from the schema', async () => {
    const schemas: ResponseSchema[] = [
      CORRECTNESS_VERDICT_SCHEMA,
      {
        name: 'score_verdict',
        schema: {
          type: 'object',
          additionalProperties: false,
          required: ['score', 'reason', 'tags', 'meta'],
          properties: {
            score: { type: 'integer', minimum: 1, maximum: 5 },
            reason: { type: 'string', minLength: 5 },
            tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
            meta: {
              type: 'object',
              additionalProperties: false,
              required: ['ok', 'weight', 'note'],
              properties: {
                ok: { type: 'boolean' },
                weight: { type: 'number', minimum: 0, maximum: 1 },
                note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
              },
            },
          },
        },
      },
    ];
    const adapter = new SimulatedChatAdapter(cfg);
    for (const response of schemas) {
      for (let i = 0; i < 30; i++) {
        const spec: ChatRequestSpec = {
          provider: 'sim',
          model: 'sim-judge',
          messages: [{ role: 'user', content: `Question ${i}` }],
          response,
        };
        const r = await answer(spec, adapter);
        // The planted unusable draws (prose, a cut-off object) are the stage parser's to refuse now
        // that the schema is asked for, not enforced on arrival; every answer built from the schema
        // is a JSON object of its own.
        if (r && r.text.startsWith('{')) expect(schemaViolation(response, r.json)).toBeNull();
      }
    }
  });

  it('answers a plain-text request (a string schema) with text', async () => {
    const r = await answer({
      provider: 'sim',
      model: 'sim-generator',
      messages: [{ role: 'user', content: 'What is the capital of France?' }],
      response: { name: 'answer_text', schema: { type: 'string' } },
    });
    expect(typeof r!.json).toBe('string');
    expect(r!.text).toBe(r!.json);
  });
});

describe('the simulated provider config', () => {
  it('refuses settings of a real server, naming the key', () => {
    const r = providerConfigSchema.safeParse({ kind: 'simulated', baseURL: 'https://api.openai.com/v1' });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].path).toEqual(['baseURL']);
    const real = providerConfigSchema.safeParse({ kind: 'openai', latencyMs: 10 });
    expect(real.error!.issues[0].path).toEqual(['latencyMs']);
  });
});
