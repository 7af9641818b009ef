// Judge-LS in other languages with verified translations (issue 37) against the mock provider,
// over both wire formats: the translator speaks OpenAI's, the back-translator Anthropic's, one
// judge each. The scripted model swaps the responses of chosen translations (unfaithful), and its
// judges pick the English gold output wherever they see it, so every swapped translation flips
// its verdicts against English: the verified-only table must be free of those flips.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { Core } from '../../src/main/facade/core';
import type { Item } from '../../src/shared/domain';
import type { JudgeLsMetrics } from '../../src/shared/protocols/judge-ls/types';
import { tempDir } from '../helpers/tmp';
import { languagesResponder } from '../mock-provider/languages-responder';
import { unit } from '../mock-provider/judge-ls-responder';
import { startMockProvider, type MockProvider } from '../mock-provider/server';

let core: Core;
let cleanup: () => void;
let mock: MockProvider;
let responder: ReturnType<typeof languagesResponder>;
let items: Item[];

const LIMIT = 10;
const LANGS = ['ar', 'LS:hi'];

beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  core = new Core({
    dataDir: t.dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test', MOCK_ANTHROPIC_KEY: 'sk-ant-test' }),
    engine: { progressIntervalMs: 200 },
  });
  const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  items = (await Promise.all(
    (await core.call('items.list', { datasetId: dataset.id })).map((r) =>
      core.call('items.get', { itemId: r.id }),
    ),
  )) as Item[];
}, 120_000);

afterAll(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup?.();
});

describe('verified translations over both wire formats (mock provider)', () => {
  let metrics: JudgeLsMetrics;
  // Items 2, 5 and 7 get a swapped Arabic translation; item 5 also a swapped code-switched one.
  const swappedItems = () => [items[1], items[4], items[6]].map((i) => i.sourceId);
  const swapped = () => new Set([...swappedItems().map((s) => `${s}:ar`), `${items[4].sourceId}:LS:hi`]);

  beforeAll(async () => {
    responder = languagesResponder(items, { swapped: swapped(), wrongRate: 0.2 });
    mock = await startMockProvider({ latencyMs: [0, 1], respond: responder.respond, logBodies: false });
    const config = studyConfig();
    const { id } = await core.call('experiments.create', { config });
    const final = await core.experiments.runToEnd(id);
    expect(final.status).toBe('finished');
    metrics = (await core.call('experiments.results', { experimentId: id })).metrics as JudgeLsMetrics;
  }, 180_000);

  const studyConfig = () => ({
    name: 'languages-mock',
    protocol: 'judge-ls',
    dataset: 'LLMBar (sample)',
    limit: LIMIT,
    providers: {
      openai: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY', concurrency: 4 },
      anthropic: { kind: 'anthropic', baseURL: mock.url, apiKeyEnv: 'MOCK_ANTHROPIC_KEY', concurrency: 4 },
    },
    transform: {
      provider: 'openai',
      model: 'translator',
      languages: LANGS,
      verify: { provider: 'anthropic', model: 'back-translator', minChrf: 60 },
    },
    judges: [
      { label: 'GPT mock', provider: 'openai', model: 'judge-openai' },
      { label: 'Claude mock', provider: 'anthropic', model: 'judge-anthropic' },
    ],
    tieProbes: false,
  });

  it('estimates the back-translations before any translation exists', async () => {
    const estimate = await core.call('experiments.estimate', {
      config: { ...studyConfig(), name: 'languages-estimate' },
    });
    const back = estimate.rows.filter((r) => r.role === 'verifier');
    expect(back).toHaveLength(1);
    expect(back[0]).toMatchObject({
      provider: 'anthropic',
      model: 'back-translator',
      calls: LIMIT * LANGS.length,
    });
    expect(back[0].inputTokens).toBeGreaterThan(0);
    // Without `verify`, no verifier row.
    const { verify: _v, ...transform } = studyConfig().transform;
    const plain = await core.call('experiments.estimate', {
      config: { ...studyConfig(), name: 'languages-estimate-plain', transform },
    });
    expect(plain.rows.some((r) => r.role === 'verifier')).toBe(false);
    // With the LLM verdict, its calls are a row of their own beside the back-translations.
    const base = studyConfig();
    const withVerdict = await core.call('experiments.estimate', {
      config: {
        ...base,
        name: 'languages-estimate-llm',
        transform: { ...base.transform, verify: { ...base.transform.verify, llmVerdict: true } },
      },
    });
    const verifier = withVerdict.rows.filter((r) => r.role === 'verifier');
    expect(verifier.map((r) => [r.kind, r.calls])).toEqual([
      ['back-translation', LIMIT * LANGS.length],
      ['equivalence-verdict', LIMIT * LANGS.length],
    ]);
  });

  it('asks for back-translations in the back-translator wire format, one per translation', () => {
    expect(responder.calls['openai:language_variant']).toBe(LIMIT * LANGS.length);
    expect(responder.calls['anthropic:back_translation']).toBe(LIMIT * LANGS.length);
    expect(metrics.usage.map((u) => u.role)).toContain('verifier');
  });

  it('flags exactly the swapped translations and leaves their items out of the verified tables', () => {
    const v = metrics.verification!;
    expect(v.min_chrf).toBe(60);
    expect(
      new Set(v.translations.filter((r) => !r.verified).map((r) => `${r.item_id}:${r.language}`)),
    ).toEqual(swapped());
    expect(v.excluded_item_ids).toEqual(swappedItems());
    // Faithful translations come back word for word.
    for (const r of v.translations.filter((x) => x.verified)) expect(r.chrf).toBe(100);
  });

  it('the verified-only table holds none of the flips the swaps caused', () => {
    // The scripted judges are right or wrong per (judge, item, language), whatever the order, so
    // a verdict flips against English in both orders or in neither: on a faithful translation when
    // the judge is right in one language only, on a swapped one when it is right in both or neither.
    const model = { 'GPT mock': 'judge-openai', 'Claude mock': 'judge-anthropic' } as Record<string, string>;
    const wrong = (judge: string, sourceId: string, lang: string) =>
      unit('wrong', model[judge], sourceId, lang) < 0.2;
    const kept = items.slice(0, LIMIT).filter((i) => !swappedItems().includes(i.sourceId));
    let causedBySwaps = 0;
    for (const row of metrics.language_invariance) {
      const lang = row.comparison.slice(3);
      const flipped = (i: Item) => wrong(row.judge, i.sourceId, 'EN') !== wrong(row.judge, i.sourceId, lang);
      const verified = metrics.verification!.language_invariance.find(
        (r) => r.judge === row.judge && r.comparison === row.comparison,
      )!;
      expect(verified.n).toBe(2 * kept.length);
      expect(verified.flip_rate * verified.n).toBeCloseTo(2 * kept.filter(flipped).length, 9);
      const all = items.slice(0, LIMIT);
      const swappedHere = (i: Item) => swapped().has(`${i.sourceId}:${lang}`);
      const expectedAll = all.filter((i) => (swappedHere(i) ? !flipped(i) : flipped(i))).length;
      expect(row.flip_rate * row.n).toBeCloseTo(2 * expectedAll, 9);
      causedBySwaps += all.filter((i) => swappedHere(i) && !flipped(i)).length;
    }
    expect(causedBySwaps).toBeGreaterThan(0);
  });
});
