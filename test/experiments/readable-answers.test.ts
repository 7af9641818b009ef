// Answers a judge gives that break the strict schema we ask for but say plainly what they mean
// (a wrapped object, "Response A", "1", "Tie", a confidence as text or left out, a score as
// text, a lower-case verdict) are read on the first answer: no second request, no extra cost.
// Through the core and the real OpenAI and Anthropic SDKs against the mock provider, for every
// verdict contract of the judging kit (pairwise, score, correctness), each in a protocol that
// asks for it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { Core } from '../../src/main/facade/core';
import { listResults } from '../../src/main/store/results';
import type { UsageRow } from '../../src/shared/report/usage';
import { tempDir } from '../helpers/tmp';
import { startMockProvider, type MockProvider, type MockRequest } from '../mock-provider/server';

const WIRES = ['openai', 'anthropic'] as const;
type Wire = (typeof WIRES)[number];

interface Form {
  /** The answer object the judge sends, for every request of its kind. */
  answer: unknown;
  /** What the parsed value must hold. */
  reads: Record<string, unknown>;
}

const PAIRWISE: Record<string, Form> = {
  wrapped: {
    answer: { pairwise_verdict: { winner: 'A', confidence: 0.8, reason: 'r' } },
    reads: { winner: 'A', confidence: 0.8 },
  },
  'Response A': {
    answer: { winner: 'Response A', confidence: 0.7, reason: 'r' },
    reads: { winner: 'A', confidence: 0.7 },
  },
  'lower-case b': { answer: { winner: 'b', confidence: 0.6, reason: 'r' }, reads: { winner: 'B' } },
  '"1" for A': { answer: { winner: '1', confidence: 0.6, reason: 'r' }, reads: { winner: 'A' } },
  '"2" for B': { answer: { winner: '2', confidence: 0.6, reason: 'r' }, reads: { winner: 'B' } },
  Tie: { answer: { winner: 'Tie', confidence: 0.5, reason: 'r' }, reads: { winner: 'tie' } },
  'confidence as text': {
    answer: { winner: 'B', confidence: '0.9', reason: 'r' },
    reads: { winner: 'B', confidence: 0.9 },
  },
  'confidence left out': { answer: { winner: 'A', reason: 'r' }, reads: { winner: 'A', confidence: null } },
  'wrapped, confidence as text, no reason': {
    answer: { pairwise_verdict: { winner: 'Response B', confidence: '0.4' } },
    reads: { winner: 'B', confidence: 0.4, reason: '' },
  },
};

const SCORE: Record<string, Form> = {
  'score as text': { answer: { score: '4', reason: 'r' }, reads: { score: 4 } },
  wrapped: { answer: { score_verdict: { score: 3, reason: 'r' } }, reads: { score: 3 } },
  'score as decimal text, no reason': { answer: { score: '5.0' }, reads: { score: 5, reason: '' } },
};

const CORRECTNESS: Record<string, Form> = {
  'lower-case verdict': {
    answer: { extracted_answer: 'x', explanation: 'e', verdict: 'correct' },
    reads: { verdict: 'CORRECT' },
  },
  wrapped: {
    answer: { correctness_verdict: { extracted_answer: 'x', explanation: 'e', verdict: 'INCORRECT' } },
    reads: { verdict: 'INCORRECT' },
  },
};

let core: Core;
let mock: MockProvider;
let cleanup: () => void;
/** The form each judge model answers with (model name → form). */
const formOf = new Map<string, Form>();

function respond(req: MockRequest): unknown {
  if (req.schemaName === 'language_variant')
    return { instruction: '指令 甲', output_1: '回答 一 甲乙丙', output_2: '回答 二 甲乙丙' };
  const form = formOf.get(req.model);
  if (!form) throw new Error(`mock: no form for ${req.model}`);
  return form.answer;
}

beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  core = new Core({
    dataDir: t.dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test', MOCK_ANTHROPIC_KEY: 'sk-ant-test' }),
    engine: { progressIntervalMs: 200 },
  });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  await core.call('datasets.loadSample', { sampleId: 'tydiqa' });
  mock = await startMockProvider({ latencyMs: [0, 1], respond, logBodies: false });
});

afterAll(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup?.();
});

const providers = () => ({
  openai: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY' },
  anthropic: { kind: 'anthropic', baseURL: mock.url, apiKeyEnv: 'MOCK_ANTHROPIC_KEY' },
});

let serial = 0;
/** A judge model of its own per case, so no answer of another case is in the ledger. */
function judgeModel(wire: Wire, form: Form): string {
  const model = `judge-${++serial}-${wire}`;
  formOf.set(model, form);
  return model;
}

const protocols = {
  pairwise: (wire: Wire, model: string) => ({
    protocol: 'judge-ls',
    dataset: 'LLMBar (sample)',
    limit: 2,
    transform: { provider: 'openai', model: 'translator', languages: ['ZH'] },
    judges: [{ label: 'Judge', provider: wire, model }],
    tieProbes: false,
  }),
  score: (wire: Wire, model: string) => ({
    protocol: 'bias-probes',
    dataset: 'LLMBar (sample)',
    limit: 2,
    judges: [{ label: 'Judge', provider: wire, model }],
    mode: 'pointwise',
    probes: ['position'],
  }),
  correctness: (wire: Wire, model: string) => ({
    protocol: 'reference-sensitivity',
    dataset: 'TyDi QA GoldP (en, ar, te) (sample)',
    limit: 2,
    judges: [{ label: 'Judge', provider: wire, model }],
    parts: { calibration: true, sensitivity: false },
  }),
};

const cases = (
  [
    ['pairwise', PAIRWISE],
    ['score', SCORE],
    ['correctness', CORRECTNESS],
  ] as const
).flatMap(([kind, forms]) =>
  WIRES.flatMap((wire) => Object.entries(forms).map(([name, form]) => ({ kind, wire, name, form }))),
);

/** Requests sent per case (one per task: no answer was asked again), for the report. */
const sent: string[] = [];

describe('readable answers that break the strict schema are read, not asked again', () => {
  it.each(cases)('$kind via $wire: $name', async ({ kind, wire, name, form }) => {
    const model = judgeModel(wire, form);
    const config = {
      name: `readable-${serial}`,
      providers: providers(),
      maxParseRetries: 2,
      // Off, so the old behaviour (every answer refused) runs to its end and can be counted.
      earlyWarningAnswers: 0,
      ...protocols[kind](wire, model),
    };
    const { id } = await core.call('experiments.create', { config });
    const final = await core.experiments.runToEnd(id);
    expect(final.status, final.message ?? '').toBe('finished');
    const judged = listResults(core.db, id).filter((r) => r.stage === 'judge' || r.stage === 'calibrate');
    // Tasks that show the same texts share one ledger request (one call, one answer).
    const distinct = new Set(judged.map((r) => r.requestId)).size;
    expect(judged.length).toBeGreaterThan(0);
    const requests = mock.log.filter((l) => l.model === model && l.status === 200).length;
    sent.push(
      `${kind} ${wire} ${name}: ${judged.length} tasks, ${distinct} distinct requests, ${requests} sent`,
    );
    for (const r of judged) {
      expect(r.status, `${name}: ${r.reason}`).toBe('ok');
      expect(r.value).toMatchObject(form.reads);
    }
    // Read on the first answer: one request each, none asked again.
    expect(requests).toBe(distinct);
    const results = await core.call('experiments.results', { experimentId: id });
    const usage = (results.metrics as { usage: UsageRow[] }).usage.find((u) => u.model === model)!;
    // Paid once: the usage counts one call per request.
    expect(usage.calls).toBe(distinct);
  });

  afterAll(() => {
    console.log(`requests per case:\n${sent.join('\n')}`);
  });
});
