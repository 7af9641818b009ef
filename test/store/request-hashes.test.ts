// Stored requests keep their hashes, and repeats (a task's `sample` index) are paid once each.
// test/fixtures/golden/request-hashes.json holds the ledger hash of one request of every kind the
// three protocols plan, computed by the release before the judging kit and the sample index
// (commit df965d5); the requests planned now must hash the same, or every stored answer would be
// paid for again.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Item } from '../../src/shared/domain';
import { parseJudgeLsOptions } from '../../src/main/protocols/judge-ls/config';
import { planJudgments, planTransforms } from '../../src/main/protocols/judge-ls/plan';
import type { Variant } from '../../src/main/protocols/judge-ls/model';
import { resolveBiasOptions, type BiasConfig } from '../../src/main/protocols/bias-probes/config';
import { biasItem } from '../../src/main/protocols/bias-probes/item';
import { planJudge as biasJudge, planRewrite } from '../../src/main/protocols/bias-probes/plan';
import {
  resolveRefSensOptions,
  type RefSensConfig,
} from '../../src/main/protocols/reference-sensitivity/config';
import {
  planCalibration,
  planGenerate,
  planJudge as refJudge,
} from '../../src/main/protocols/reference-sensitivity/plan';
import type { QaItem } from '../../src/main/protocols/reference-sensitivity/qa-item';
import { providerConfigSchema } from '../../src/main/providers/config';
import { ProviderError } from '../../src/main/providers/errors';
import { SimulatedChatAdapter } from '../../src/main/providers/simulated/adapter';
import type { ChatRequestSpec } from '../../src/main/providers/types';
import { openDatabase, type Database } from '../../src/main/store/db';
import {
  canonicalRequest,
  ensureRequests,
  getRequestJson,
  requestHash,
  specFromStored,
} from '../../src/main/store/ledger';
import { PAIRWISE_VERDICT_SCHEMA } from '../../src/main/judging/pairwise';
import { tempDir } from '../helpers/tmp';

const GOLDEN = JSON.parse(
  readFileSync(join(import.meta.dirname, '../fixtures/golden/request-hashes.json'), 'utf8'),
) as Record<string, string>;
const E = 'openai:https://api.openai.com/v1';

const item = {
  id: 1,
  datasetId: 1,
  sourceId: 'n1',
  position: 0,
  subset: 'Natural',
  instruction: 'Name a prime number.',
  output1: 'Seven is prime.',
  output2: 'Eight, surely.',
  label: 1,
  extra: null,
} as unknown as Item;
const qa: QaItem[] = [
  {
    id: 1,
    sourceId: 'q1',
    question: 'Capital of France?',
    answers: ['Paris'],
    language: 'en',
    context: null,
    category: null,
  },
  {
    id: 2,
    sourceId: 'q2',
    question: 'Capital of Peru?',
    answers: ['Lima'],
    language: 'en',
    context: null,
    category: null,
  },
];
const judge = { label: 'J', provider: 'openai', model: 'gpt-4.1-mini' };

/** The same requests the fixture was computed from, planned by today's code. */
function hashesNow(): Record<string, string> {
  const out: Record<string, string> = {};
  const o = parseJudgeLsOptions({});
  out.transform = requestHash(E, planTransforms([item], o, { provider: 'openai', model: 'm' })[0].request);
  const v = { itemId: 1, language: 'ZH', manual: false, instruction: '说', output1: '七', output2: '八' };
  planJudgments([item], [v as Variant], [judge], o).forEach(
    (t, i) => (out[`judge-ls ${i} ${t.key}`] = requestHash(E, t.request)),
  );
  for (const mode of ['pointwise', 'pairwise'] as const) {
    const bo = resolveBiasOptions({
      name: 'x',
      protocol: 'bias-probes',
      dataset: 1,
      providers: {},
      judges: [judge],
      mode,
    } as BiasConfig);
    for (const t of planRewrite([biasItem(item)], { provider: 'openai', model: 'rw' }, bo))
      out[`bias ${mode} ${t.key}`] = requestHash(E, t.request);
    for (const t of biasJudge([biasItem(item)], [judge], bo, new Map()))
      out[`bias ${mode} ${t.key}`] = requestHash(E, t.request);
  }
  const ro = resolveRefSensOptions(
    {
      name: 'x',
      protocol: 'reference-sensitivity',
      dataset: 1,
      providers: {},
      judges: [judge],
    } as RefSensConfig,
    () => [],
  );
  for (const t of [
    ...planGenerate(qa, [judge], ro),
    ...planCalibration(qa, [judge], ro),
    ...refJudge(qa, [judge], [{ generator: 'g', sourceId: 'q1', answer: 'Paris', imported: true }], ro),
  ])
    out[`refsens ${t.key}`] = requestHash(E, t.request);
  return out;
}

const spec: ChatRequestSpec = {
  provider: 'openai',
  model: 'gpt-4.1-mini',
  system: 'You judge.',
  messages: [{ role: 'user', content: 'Which is better?' }],
  temperature: 0,
  maxOutputTokens: 400,
  response: PAIRWISE_VERDICT_SCHEMA,
};
/** This request's hash before the sample index existed (computed on commit df965d5's ledger). */
const SPEC_HASH = 'd84dab92bbfdf2f73933673d04cb1694f6f1f40b9a506542660cc4bc5f43072d';

describe('request hashes', () => {
  it('every kind of request the three protocols plan hashes as it did before', () => {
    expect(Object.keys(GOLDEN)).toHaveLength(36);
    expect(hashesNow()).toEqual(GOLDEN);
  });

  it('a first ask (sample absent or 0) hashes as before; each repeat hashes apart', () => {
    expect(requestHash(E, spec)).toBe(SPEC_HASH);
    expect(requestHash(E, { ...spec, sample: 0 })).toBe(SPEC_HASH);
    expect(canonicalRequest(E, { ...spec, sample: 0 })).not.toHaveProperty('sample');
    const repeats = [1, 2, 3].map((sample) => requestHash(E, { ...spec, sample }));
    expect(new Set([SPEC_HASH, ...repeats]).size).toBe(4);
  });
});

describe('the ledger and repeats', () => {
  let db: Database;
  let cleanup: () => void;
  beforeEach(() => {
    const t = tempDir();
    cleanup = t.cleanup;
    db = openDatabase(join(t.dir, 'store.sqlite'));
  });
  afterEach(() => {
    db.close();
    cleanup();
  });

  it('holds one row per sample, never two for the same sample, and sends the sample back out', () => {
    const ids = ensureRequests(db, [
      { endpointId: E, spec },
      { endpointId: E, spec: { ...spec, sample: 1 } },
      { endpointId: E, spec: { ...spec, sample: 2 } },
      { endpointId: E, spec: { ...spec, sample: 0 } },
      { endpointId: E, spec: { ...spec, sample: 2 } },
    ]);
    expect(new Set(ids).size).toBe(3);
    expect(ids[3]).toBe(ids[0]);
    expect(ids[4]).toBe(ids[2]);
    expect(ensureRequests(db, [{ endpointId: E, spec: { ...spec, sample: 1 } }])).toEqual([ids[1]]);
    // What the engine rebuilds to send: the sample is kept (the simulated provider seeds on it).
    expect(specFromStored(getRequestJson(db, ids[2])!, 'openai').sample).toBe(2);
    expect(specFromStored(getRequestJson(db, ids[0])!, 'openai')).not.toHaveProperty('sample');
  });
});

describe('the simulated provider and repeats', () => {
  const cfg = providerConfigSchema.parse({ kind: 'simulated', latencyMs: 0 });
  const prompt = (k: number): ChatRequestSpec => ({
    ...spec,
    model: 'sim-judge',
    messages: [
      {
        role: 'user',
        content: `<instruction>\nTask ${k}\n</instruction>\n\n<response_a>\nShort answer ${k}.\n</response_a>\n\n<response_b>\nA longer answer to task ${k}, with more words in it.\n</response_b>`,
      },
    ],
  });
  /** The answer's text, or its raw text when it is one of the simulated unparseable ones. */
  const ask = async (adapter: SimulatedChatAdapter, s: ChatRequestSpec) => {
    try {
      return (await adapter.send(s)).result.text;
    } catch (err) {
      if (err instanceof ProviderError && err.kind === 'unparseable') return `unparseable: ${err.rawText}`;
      throw err;
    }
  };
  const answers = async (adapter: SimulatedChatAdapter, sample: number) => {
    const out: string[] = [];
    for (let k = 0; k < 40; k++) out.push(await ask(adapter, { ...prompt(k), sample }));
    return out;
  };

  it('seeds on the sample: a repeat is its own draw, the same on every run', async () => {
    const first = await answers(new SimulatedChatAdapter(cfg), 0);
    // Sample 0 is the first ask as it always was: sample absent gives the same answers.
    const absent: string[] = [];
    const plain = new SimulatedChatAdapter(cfg);
    for (let k = 0; k < 40; k++) absent.push(await ask(plain, prompt(k)));
    expect(absent).toEqual(first);
    const again = new SimulatedChatAdapter(cfg);
    const s1 = await answers(again, 1);
    const s2 = await answers(again, 2);
    expect(await answers(new SimulatedChatAdapter(cfg), 1)).toEqual(s1);
    expect(s1.filter((a, i) => a !== first[i]).length).toBeGreaterThan(0);
    expect(s2.filter((a, i) => a !== s1[i]).length).toBeGreaterThan(0);
  });
});
