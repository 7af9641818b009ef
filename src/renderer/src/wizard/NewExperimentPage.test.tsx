import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors';
import { App } from '../App';
import { i18next } from '../i18n';
import { listRendererProtocols, registerRendererProtocol, unregisterRendererProtocol } from '../protocols';
import { buildConfig, initialDraft } from '../lib/experiment-config';
import { useWizard, WIZARD_STORAGE_KEY } from '../stores/wizard';
import { estimateOf } from '../test/fake-api';
import { unmountAndDropApiAfterEach } from '../test/dom';
import { resetWizardAndDatasets, clickNext, openNewExperimentWizard, wizardApi } from '../test/wizard';

const ROWS = [
  {
    role: 'transformer' as const,
    label: 'transformer',
    provider: 'openai',
    model: 'gpt-4.1-mini',
    kind: 'transform' as const,
    calls: 6,
    cachedCalls: 2,
    inputTokens: 9000,
    outputTokens: 7000,
    costUsd: 0.0148,
    priced: true,
  },
  {
    role: 'judge' as const,
    label: 'gpt-4.1-mini',
    provider: 'openai',
    model: 'gpt-4.1-mini',
    kind: 'quality' as const,
    calls: 18,
    cachedCalls: 0,
    inputTokens: 20000,
    outputTokens: 1800,
    costUsd: 0.0109,
    priced: true,
  },
  {
    role: 'judge' as const,
    label: 'local qwen',
    provider: 'ollama',
    model: 'qwen2.5:7b',
    kind: 'tie_probe' as const,
    calls: 30,
    cachedCalls: 0,
    inputTokens: 30000,
    outputTokens: 3000,
    costUsd: 0,
    priced: false,
  },
];

/** The wizard's fake API, where only providers that name a key env var need a key. */
function makeApi(over: Parameters<typeof wizardApi>[0] = {}) {
  return wizardApi({
    'providers.keyStatus': ({ providers }) =>
      Object.fromEntries(
        Object.entries(providers).map(([n, p]) => [
          n,
          (p as { apiKeyEnv?: string }).apiKeyEnv ? 'set' : 'not_needed',
        ]),
      ),
    'experiments.estimate': () => estimateOf(ROWS),
    ...over,
  });
}

/** What the options step shows about tie probes for the other languages typed on the transform step. */
type TieProbeCase = { otherLanguages: string; offered: boolean; says: RegExp; doesNotSay?: RegExp };

const stepTitle = () => screen.getByRole('heading', { level: 2 }).textContent;

beforeEach(resetWizardAndDatasets);
unmountAndDropApiAfterEach();
afterEach(() => {
  unregisterRendererProtocol('test-pointwise');
});

describe('New experiment wizard', () => {
  it('keeps the user on the judges step until every judge has a name, a model and a unique label', async () => {
    await openNewExperimentWizard(makeApi());
    expect((screen.getByTestId('wizard-dataset') as HTMLSelectElement).value).toBe('1');
    clickNext();
    expect(stepTitle()).toBe('What should be tested?');
    clickNext();
    expect(stepTitle()).toBe('Who judges?');

    fireEvent.change(screen.getByTestId('judge-model'), { target: { value: '' } });
    clickNext();
    expect(stepTitle()).toBe('Who judges?');
    const row = screen.getByTestId('judge-row');
    expect(row.textContent).toContain('Enter a model name.');
    expect(row.textContent).toContain('Give this judge a name.');

    fireEvent.change(screen.getByTestId('judge-model'), { target: { value: 'gpt-4.1' } });
    expect((screen.getByTestId('judge-label') as HTMLInputElement).value).toBe('gpt-4.1');
    fireEvent.click(screen.getByTestId('add-judge'));
    const labels = screen.getAllByTestId('judge-label');
    fireEvent.change(labels[1], { target: { value: 'gpt-4.1' } });
    clickNext();
    expect(screen.getAllByTestId('judge-row')[1].textContent).toContain('Another judge has this name');

    fireEvent.change(labels[1], { target: { value: 'second' } });
    clickNext();
    expect(stepTitle()).toBe('How should the texts be translated?');
    // The state survives going back and forth between steps.
    fireEvent.click(screen.getByTestId('wizard-back'));
    expect(screen.getAllByTestId('judge-row')).toHaveLength(2);
  });

  it('shows key status, tests the connection, and shows the address field for a local server', async () => {
    const api = makeApi({
      'providers.testConnection': () => ({ ok: true, message: 'Connected; model found.' }),
    });
    await openNewExperimentWizard(api);
    clickNext(2);
    await waitFor(() => expect(screen.getByTestId('key-status').dataset.status).toBe('set'));
    fireEvent.click(screen.getByTestId('test-connection'));
    expect((await screen.findByTestId('test-connection-result')).textContent).toBe(
      '✓ Connected; model found.',
    );
    expect(api.calls.find((c) => c.method === 'providers.testConnection')!.params).toEqual({
      provider: { kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY', rpm: 500, tpm: 200000, concurrency: 16 },
      name: 'openai',
      model: 'gpt-4.1-mini',
    });
    // A changed setting makes the old result stale.
    fireEvent.change(screen.getByTestId('provider-apikeyenv'), { target: { value: 'MY_OPENAI_KEY' } });
    expect(screen.queryByTestId('test-connection-result')).toBeNull();
    fireEvent.change(screen.getByTestId('judge-provider-preset'), { target: { value: 'ollama' } });
    expect((screen.getByTestId('judge-model') as HTMLInputElement).value).toBe('qwen2.5:7b');
    // Ollama's card replaces OpenAI's, with its address in view and no key needed.
    await waitFor(() => {
      const cards = screen.getAllByTestId('provider-card');
      expect(cards.map((c) => c.dataset.provider)).toEqual(['ollama']);
    });
    expect((screen.getByTestId('provider-baseurl') as HTMLInputElement).value).toBe(
      'http://127.0.0.1:11434/v1',
    );
    await waitFor(() => expect(screen.getByTestId('key-status').dataset.status).toBe('not_needed'));
  });

  it('starts a custom server with an empty address and a hint, and offers the models Test connection listed', async () => {
    const api = makeApi({
      'providers.testConnection': () => ({
        ok: true,
        message: 'Connected; 2 models available.',
        models: ['llama3.1:8b', 'qwen2.5:14b'],
      }),
    });
    await openNewExperimentWizard(api);
    clickNext(2);
    fireEvent.change(screen.getByTestId('judge-provider-preset'), { target: { value: 'custom' } });
    const address = (await screen.findByTestId('provider-baseurl')) as HTMLInputElement;
    expect(address.value).toBe('');
    expect(address.placeholder).toBe('http://localhost:11434/v1');
    expect(screen.getByTestId('provider-card').textContent).toContain('http://localhost:11434/v1 for Ollama');
    expect(screen.getByTestId('provider-card').textContent).not.toContain('Leave as is');
    fireEvent.change(address, { target: { value: 'http://localhost:11434/v1' } });
    fireEvent.change(screen.getByTestId('judge-model'), { target: { value: 'llama3.1:8b' } });
    fireEvent.click(screen.getByTestId('test-connection'));
    await screen.findByTestId('test-connection-result');
    const listId = screen.getByTestId('judge-model').getAttribute('list')!;
    const offered = [...document.getElementById(listId)!.querySelectorAll('option')].map((o) => o.value);
    expect(offered).toEqual(expect.arrayContaining(['llama3.1:8b', 'qwen2.5:14b']));
  });

  it('offers the Batch switch for a custom server once Test connection found its Batch API, at that address only (issue 26 item 7)', async () => {
    let batch = true;
    const api = makeApi({
      'providers.testConnection': () => ({ ok: true, message: 'Connected; 1 model available.', batch }),
    });
    await openNewExperimentWizard(api);
    clickNext(2);
    fireEvent.change(screen.getByTestId('judge-provider-preset'), { target: { value: 'custom' } });
    fireEvent.change(await screen.findByTestId('provider-baseurl'), {
      target: { value: 'http://10.0.0.5:8000/v1' },
    });
    fireEvent.change(screen.getByTestId('judge-model'), { target: { value: 'qwen2.5-7b' } });
    expect(screen.queryByTestId('judge-batch')).toBeNull();
    fireEvent.click(screen.getByTestId('test-connection'));
    expect((await screen.findByTestId('test-connection-batch')).textContent).toMatch(/offers the Batch API/);
    fireEvent.click(await screen.findByTestId('judge-batch'));
    const config = () =>
      buildConfig(useWizard.getState().draft) as {
        providers: Record<string, Record<string, unknown>>;
        judges: { provider: string }[];
      };
    expect(config().judges[0].provider).toBe('custom-batch');
    expect(config().providers['custom-batch']).toEqual({
      ...config().providers.custom,
      mode: 'batch',
    });
    // Another address is another server: no switch until it is tested, and the judge goes live.
    fireEvent.change(screen.getByTestId('provider-baseurl'), {
      target: { value: 'http://10.0.0.6:8000/v1' },
    });
    expect(screen.queryByTestId('judge-batch')).toBeNull();
    expect(config().judges[0].provider).toBe('custom');
    batch = false;
    fireEvent.click(screen.getByTestId('test-connection'));
    expect((await screen.findByTestId('test-connection-batch')).textContent).toMatch(/no Batch API/);
    expect(screen.queryByTestId('judge-batch')).toBeNull();
  });

  it("offers OpenAI's own API three ways to send (standard, Batch API, flex) into the config, in English and 中文 (issue 39)", async () => {
    await openNewExperimentWizard(makeApi());
    clickNext(2);
    const config = () =>
      buildConfig(useWizard.getState().draft) as {
        providers: Record<string, Record<string, unknown>>;
        judges: { provider: string }[];
      };
    const tier = await screen.findByTestId('provider-tier');
    expect([...tier.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      'Standard (live, list price)',
      'Batch API (half price, answers within 24 h)',
      'Flex (half price, slower live answers)',
    ]);
    expect(config().providers.openai).not.toHaveProperty('serviceTier');
    fireEvent.change(tier, { target: { value: 'flex' } });
    expect(config().providers.openai).toMatchObject({ kind: 'openai', serviceTier: 'flex' });
    expect(config().providers.openai).not.toHaveProperty('mode');
    // A judge switched to Batch beside flex: its twin takes the Batch API's price, never flex
    // (the core refuses flex with batch mode).
    fireEvent.click(screen.getByTestId('judge-batch'));
    expect(config().judges[0].provider).toBe('openai-batch');
    expect(config().providers['openai-batch']).toMatchObject({ mode: 'batch' });
    expect(config().providers['openai-batch']).not.toHaveProperty('serviceTier');
    fireEvent.click(screen.getByTestId('judge-batch'));
    fireEvent.change(tier, { target: { value: 'batch' } });
    expect(config().providers.openai).toMatchObject({ mode: 'batch' });
    expect(config().providers.openai).not.toHaveProperty('serviceTier');
    // Another server behind the OpenAI preset has no service tiers: the choice goes, and so does the setting.
    fireEvent.change(screen.getByTestId('provider-baseurl'), {
      target: { value: 'http://10.0.0.5:8000/v1' },
    });
    expect(screen.queryByTestId('provider-tier')).toBeNull();
    expect(config().providers.openai).not.toHaveProperty('mode');
    fireEvent.change(screen.getByTestId('provider-baseurl'), { target: { value: '' } });
    await act(() => i18next.changeLanguage('zh'));
    expect(
      [...screen.getByTestId('provider-tier').querySelectorAll('option')].map((o) => o.textContent),
    ).toEqual(['标准（实时，标价）', '批处理 API（半价，24 小时内返回）', 'Flex（半价，实时但回答较慢）']);
    await act(() => i18next.changeLanguage('en'));
    fireEvent.change(screen.getByTestId('judge-provider-preset'), { target: { value: 'anthropic' } });
    expect(screen.queryByTestId('provider-tier')).toBeNull();
  });

  it('explains a key that is set but withheld from a custom server, with the exact line to set (issue 26 item 6)', async () => {
    const api = makeApi({
      'providers.keyStatus': ({ providers }) =>
        Object.fromEntries(Object.keys(providers).map((n) => [n, n === 'custom' ? 'withheld' : 'set'])),
    });
    await openNewExperimentWizard(api);
    clickNext(2);
    fireEvent.change(screen.getByTestId('judge-provider-preset'), { target: { value: 'custom' } });
    fireEvent.change(await screen.findByTestId('provider-baseurl'), {
      target: { value: 'http://10.0.0.5:8000/v1' },
    });
    fireEvent.change(screen.getByTestId('provider-apikeyenv'), { target: { value: 'FAKE_KEY' } });
    const badge = screen.getByTestId('key-status');
    await waitFor(() => expect(badge.dataset.status).toBe('withheld'));
    expect(badge.textContent).not.toMatch(/missing/i);
    // The rule, where the user is: on the badge and under it.
    expect(badge.getAttribute('title')).toMatch(/FAKE_KEY.*known.*FAKE_BASE_URL/);
    expect(screen.getByTestId('key-scope-line').textContent).toBe('FAKE_BASE_URL=http://10.0.0.5:8000/v1');
    expect(screen.getByTestId('provider-card').textContent).toContain('restart');
  });

  it('keeps the draft where a restarted judge-lab serve finds it (localStorage, not this tab only)', async () => {
    localStorage.removeItem(WIZARD_STORAGE_KEY);
    await openNewExperimentWizard(makeApi());
    clickNext(2);
    fireEvent.change(screen.getAllByTestId('judge-model')[0], { target: { value: 'my-model-7b' } });
    await waitFor(() => expect(localStorage.getItem(WIZARD_STORAGE_KEY) ?? '').toContain('my-model-7b'));
  });

  it('warns when the translator is also a judge, and the summary names the edited prompt templates', async () => {
    await openNewExperimentWizard(makeApi());
    clickNext(3);
    expect(stepTitle()).toBe('How should the texts be translated?');
    // By default the translator is the first judge's model: the judge would rate its own translations.
    expect(screen.getByTestId('translator-is-judge').textContent).toContain('The translator is also a judge');
    fireEvent.change(screen.getByTestId('template-judgeSystem'), { target: { value: 'Be strict. {{x}}' } });
    fireEvent.change(screen.getByTestId('transform-model'), { target: { value: 'gpt-4.1' } });
    expect(screen.queryByTestId('translator-is-judge')).toBeNull();
    fireEvent.change(screen.getByTestId('transform-model'), { target: { value: 'gpt-4.1-mini' } });
    clickNext(2);
    expect(stepTitle()).toBe('Check and start');
    expect(screen.getByTestId('summary-translator-is-judge')).toBeTruthy();
    expect(screen.getByTestId('summary-templates').textContent).toBe(
      'edited: Judge: system prompt (the others are the defaults)',
    );
  });

  it.each([
    [
      'turns tie probes off, with the reason, when every language is code-switched',
      { otherLanguages: 'LS:ar', offered: false, says: /Tie probes need a translation, not code-switching/ },
    ],
    [
      'offers tie probes without ZH when another language is translated (issue 37), naming it',
      {
        otherLanguages: 'ar LS:ar',
        offered: true,
        says: /next to its own translation \(ar\)/,
        doesNotSay: /Tie probes need a translation/,
      },
    ],
  ])('%s', async (_name, { otherLanguages, offered, says, doesNotSay }: TieProbeCase) => {
    await openNewExperimentWizard(makeApi());
    clickNext(3);
    fireEvent.click(screen.getByTestId('language-ZH'));
    fireEvent.change(screen.getByTestId('transform-other-languages'), { target: { value: otherLanguages } });
    clickNext();
    const box = screen.getByTestId('option-tie-probes') as HTMLInputElement;
    expect(box.disabled).toBe(!offered);
    expect(box.checked).toBe(offered);
    expect(screen.getByText(says)).toBeTruthy();
    if (doesNotSay) expect(screen.queryByText(doesNotSay)).toBeNull();
  });

  it('estimates calls and cost per judge and kind, then creates, starts and opens the run', async () => {
    const api = makeApi();
    await openNewExperimentWizard(api);
    clickNext(5);
    expect(stepTitle()).toBe('Check and start');

    const table = await screen.findByTestId('estimate-table');
    const rows = within(table).getAllByTestId('estimate-row');
    expect(rows.map((r) => r.dataset.kind)).toEqual(['transform', 'quality', 'tie_probe']);
    expect(rows[0].textContent).toContain('Translation');
    expect(rows[0].textContent).toContain('$0.0148');
    expect(rows[2].textContent).toContain('local qwen');
    expect(rows[2].textContent).toContain('unpriced');
    expect(screen.getByTestId('estimate-total-calls').textContent).toBe('54');
    expect(screen.getByTestId('estimate-total-cost').textContent).toBe('$0.0257 + unpriced');
    expect(screen.getByTestId('estimate-time').textContent).toContain('3 minutes');

    const sent = api.calls.find((c) => c.method === 'experiments.estimate')!.params as { config: unknown };
    expect(sent.config).toEqual({
      name: expect.stringMatching(/^LLMBar \(sample\) \d{4}-\d{2}-\d{2}$/),
      // The wizard starts on the first registered protocol.
      protocol: listRendererProtocols()[0].id,
      dataset: 1,
      providers: {
        openai: { kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY', rpm: 500, tpm: 200000, concurrency: 16 },
      },
      transform: { provider: 'openai', model: 'gpt-4.1-mini', languages: ['ZH', 'LS'] },
      judges: [{ label: 'gpt-4.1-mini', provider: 'openai', model: 'gpt-4.1-mini', temperature: 0 }],
      tieProbes: true,
      ci: 'wilson',
    });

    fireEvent.click(screen.getByTestId('create-and-start'));
    await waitFor(() => expect(window.location.hash).toBe('#/experiments/7'));
    expect(api.calls.map((c) => c.method)).toEqual(
      expect.arrayContaining(['experiments.create', 'experiments.start']),
    );
    expect(api.calls.find((c) => c.method === 'experiments.start')!.params).toEqual({ experimentId: 7 });
  });

  it('locks an analysis plan at create when the Preregister section is filled in, with the run page form', async () => {
    const comparison = (id: string, label: string, labelKey: string) => ({
      id,
      label,
      labelKey,
      labelParams: { comparison: 'EN-ZH' },
      model: 'mcnemar-exact' as const,
      effectScale: 'difference of proportions',
      unit: 'pairs',
      unitsPerItem: 2,
      n: 20,
      mde: 0.3,
      assumptions: [],
      effect: 0.05,
      effectSource: 'default' as const,
      effectTyped: false,
      itemsNeeded: 400,
    });
    const power = {
      alpha: 0.05,
      power: 0.8,
      pilot: null,
      comparisons: [
        comparison('accuracy_change:EN-ZH', 'Accuracy change EN-ZH (per judge)', 'power.accuracyChange'),
        comparison('flip_rate:EN-ZH', 'Flip rate EN-ZH (per judge)', 'power.flipRate'),
      ],
    };
    const api = makeApi({ 'experiments.estimate': () => ({ ...estimateOf(ROWS), power }) });
    await openNewExperimentWizard(api);
    clickNext(5);
    const section = await screen.findByTestId('wizard-prereg');
    expect(within(section).queryByTestId('prereg-form')).toBeNull();
    fireEvent.click(within(section).getByTestId('wizard-prereg-toggle'));
    // The run page's fields: the power plan's comparisons as checkboxes; what is missing says so.
    expect(within(section).getByTestId('prereg-error-confirmatory').textContent).toBe(
      'Choose at least one comparison.',
    );
    expect(within(section).getByTestId('prereg-error-exclusions')).toBeTruthy();
    expect((screen.getByTestId('create-and-start') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(section).getByRole('checkbox', { name: /flip_rate:EN-ZH/ }));
    fireEvent.change(within(section).getByTestId('prereg-exclusions'), { target: { value: 'none' } });
    fireEvent.change(within(section).getByTestId('prereg-stopping'), {
      target: { value: 'all planned items' },
    });
    fireEvent.change(within(section).getByTestId('prereg-correction'), { target: { value: 'bonferroni' } });
    expect(within(section).queryByRole('alert')).toBeNull();
    await waitFor(() =>
      expect((screen.getByTestId('create-and-start') as HTMLButtonElement).disabled).toBe(false),
    );
    fireEvent.click(screen.getByTestId('create-and-start'));
    await waitFor(() => expect(window.location.hash).toBe('#/experiments/7'));
    const created = api.calls.find((c) => c.method === 'experiments.create')!.params as {
      config: Record<string, unknown>;
    };
    expect(created.config.preregistration).toEqual({
      confirmatory: ['flip_rate:EN-ZH'],
      alpha: 0.05,
      correction: 'bonferroni',
      exclusions: 'none',
      stopping: 'all planned items',
    });
    // The estimate is asked without the plan: it changes neither the cost nor the power.
    for (const c of api.calls.filter((x) => x.method === 'experiments.estimate'))
      expect((c.params as { config: Record<string, unknown> }).config.preregistration).toBeUndefined();
  });

  it('says "under a minute" for a short run, never "about under a minute"', async () => {
    const api = makeApi({ 'experiments.estimate': () => estimateOf(ROWS, { minutesAtRateLimits: 0.4 }) });
    await openNewExperimentWizard(api);
    clickNext(5);
    const time = await screen.findByTestId('estimate-time');
    expect(time.textContent).toBe('Expected time at your rate limits: under a minute.');
  });

  it('gives the range a server without a rate limit may take (issue 38)', async () => {
    const api = makeApi({
      'experiments.estimate': () => estimateOf(ROWS, { minutesAtRateLimits: 2.2, minutesRange: [0.6, 9] }),
    });
    await openNewExperimentWizard(api);
    clickNext(5);
    const time = await screen.findByTestId('estimate-time');
    expect(time.textContent).toBe(
      'Expected time at your rate limits: about 2 minutes. No rate limit is set, so the time depends on how fast the server answers: from under a minute (a fast server) to 9 minutes (a slow one).',
    );
  });

  it('blocks the start and says which key is missing, instead of a run that pauses at once', async () => {
    const api = makeApi({
      'providers.keyStatus': ({ providers }) =>
        Object.fromEntries(Object.keys(providers).map((n) => [n, 'missing'])),
    });
    await openNewExperimentWizard(api);
    clickNext(5);
    await screen.findByTestId('estimate-table');
    const alert = await screen.findByTestId('summary-missing-keys');
    expect(alert.textContent).toContain('No API key for OPENAI_API_KEY: the run would stop at once.');
    expect(screen.getByTestId('create-and-start')).toHaveProperty('disabled', true);
  });

  it('draws a random sample of N with a seed from the chosen subsets, and sends that in the config', async () => {
    const api = makeApi();
    await openNewExperimentWizard(api);
    for (let i = 0; i < 6 && stepTitle() !== 'Options'; i++) clickNext();
    expect(stepTitle()).toBe('Options');
    fireEvent.change(screen.getByTestId('option-sample'), { target: { value: 'random' } });
    // Random without a number of items is refused at this step.
    clickNext();
    expect(stepTitle()).toBe('Options');
    expect(screen.getByText('A random sample needs a number of items.')).toBeTruthy();
    fireEvent.change(screen.getByTestId('option-limit'), { target: { value: '2' } });
    fireEvent.change(screen.getByTestId('option-seed'), { target: { value: '42' } });
    fireEvent.click(within(screen.getByTestId('option-subsets')).getByLabelText(/Natural/));
    clickNext();
    expect(stepTitle()).toBe('Check and start');
    await screen.findByTestId('estimate-table');
    expect(screen.getByText(/a random sample of 2 items \(seed 42\) · subsets Natural/)).toBeTruthy();
    const sent = api.calls.find((c) => c.method === 'experiments.estimate')!.params as {
      config: Record<string, unknown>;
    };
    expect(sent.config).toMatchObject({ limit: 2, sample: 'random', seed: 42, subsets: ['Natural'] });
  });

  it('keeps the draft and the step across a reload of the page', async () => {
    const api = makeApi();
    await openNewExperimentWizard(api);
    clickNext(5);
    act(() => useWizard.getState().setName('kept over reload'));
    expect(stepTitle()).toBe('Check and start');
    const saved = localStorage.getItem(WIZARD_STORAGE_KEY)!;
    expect(JSON.parse(saved).state).toMatchObject({ step: 'summary', draft: { name: 'kept over reload' } });
    // A reload: the page's state is gone, the tab's storage is not.
    cleanup();
    act(() => useWizard.setState({ draft: initialDraft(), step: 'dataset' }));
    localStorage.setItem(WIZARD_STORAGE_KEY, saved);
    await act(async () => {
      await useWizard.persist.rehydrate();
    });
    render(<App />);
    expect(stepTitle()).toBe('Check and start');
    expect(useWizard.getState().draft.name).toBe('kept over reload');
    // New judges do not take the keys of restored ones.
    act(() => useWizard.getState().addJudge());
    const keys = useWizard.getState().draft.judges.map((j) => j.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("shows the core's config errors next to the step they belong to", async () => {
    const api = makeApi({
      'experiments.estimate': () => {
        throw new ApiError('invalid_input', 'config: judges[0].model: no such model', [
          { file: 'config', field: 'judges[0].model', message: 'no such model on this server' },
        ]);
      },
    });
    await openNewExperimentWizard(api);
    clickNext(5);
    const panel = await screen.findByTestId('wizard-error');
    expect(panel.textContent).toContain('no such model on this server');
    expect(screen.queryByTestId('estimate-table')).toBeNull();
    expect((screen.getByTestId('create-and-start') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(within(screen.getByText('Fix it in:')).getByRole('button', { name: 'Judges' }));
    expect(stepTitle()).toBe('Who judges?');
    expect(screen.getByTestId('judge-row').textContent).toContain('no such model on this server');
  });

  it('lets a desktop user paste a key that is stored by main and never shown again', async () => {
    const stored: string[] = [];
    const api = makeApi({
      'app.info': () => ({ version: '0', dataDir: '/d', door: 'electron', samples: [] }),
      'keys.status': () => ({ managed: true, stored: [...stored], warning: null }),
      'keys.set': ({ name }) => {
        stored.push(name);
        return { stored: [...stored] };
      },
      'providers.keyStatus': ({ providers }) =>
        Object.fromEntries(Object.keys(providers).map((n) => [n, stored.length ? 'set' : 'missing'])),
    });
    await openNewExperimentWizard(api);
    clickNext(2);
    const card = await screen.findByTestId('provider-card');
    await waitFor(() => expect(within(card).getByTestId('key-status').dataset.status).toBe('missing'));
    const input = within(card).getByTestId('key-input') as HTMLInputElement;
    expect(input.type).toBe('password');
    fireEvent.change(input, { target: { value: 'sk-typed-secret' } });
    await act(async () => fireEvent.click(within(card).getByTestId('key-save')));
    expect(api.calls.find((c) => c.method === 'keys.set')?.params).toEqual({
      name: 'OPENAI_API_KEY',
      value: 'sk-typed-secret',
    });
    expect(input.value).toBe('');
    await waitFor(() => expect(within(card).getByTestId('key-status').dataset.status).toBe('set'));
    expect(card.textContent).not.toContain('sk-typed-secret');
  });

  it('lets a web user enter a key for a custom server, kept with its address and offered again; never shown (issue 38)', async () => {
    const stored: Record<string, string | undefined> = {};
    const status = () => ({
      managed: true,
      stored: Object.keys(stored).sort(),
      warning: null,
      storage: 'file' as const,
      file: '/d/serve-keys.json',
      addresses: Object.fromEntries(Object.entries(stored).filter((e): e is [string, string] => !!e[1])),
    });
    const api = makeApi({
      'keys.status': status,
      'keys.set': ({ name, baseURL }) => {
        stored[name] = baseURL;
        return { stored: Object.keys(stored) };
      },
      'keys.delete': ({ name }) => {
        delete stored[name];
        return { stored: Object.keys(stored) };
      },
      'providers.keyStatus': ({ providers }) =>
        Object.fromEntries(
          Object.entries(providers).map(([n, p]) => [
            n,
            (p as { apiKeyEnv?: string }).apiKeyEnv! in stored ? 'set' : 'missing',
          ]),
        ),
    });
    await openNewExperimentWizard(api);
    clickNext(2);
    fireEvent.change(screen.getByTestId('judge-provider-preset'), { target: { value: 'custom' } });
    fireEvent.change(await screen.findByTestId('provider-baseurl'), {
      target: { value: 'http://10.0.0.5:8000/v1' },
    });
    fireEvent.change(screen.getByTestId('provider-apikeyenv'), { target: { value: 'LAB_API_KEY' } });
    const card = screen.getByTestId('provider-card');
    await waitFor(() => expect(within(card).getByTestId('key-status').dataset.status).toBe('missing'));
    // No restart to ask for: the key goes in here, where it is kept is said.
    expect(card.textContent).toContain('paste it below');
    expect(card.textContent).not.toContain('restart');
    expect(within(card).getByTestId('key-entry').textContent).toContain('/d/serve-keys.json');
    expect(within(card).getByTestId('key-address').textContent).toContain('http://10.0.0.5:8000/v1');
    const input = within(card).getByTestId('key-input') as HTMLInputElement;
    expect(input.type).toBe('password');
    fireEvent.change(input, { target: { value: 'sk-lab-secret' } });
    await act(async () => fireEvent.click(within(card).getByTestId('key-save')));
    expect(api.calls.find((c) => c.method === 'keys.set')?.params).toEqual({
      name: 'LAB_API_KEY',
      value: 'sk-lab-secret',
      baseURL: 'http://10.0.0.5:8000/v1',
    });
    expect(input.value).toBe('');
    await waitFor(() => expect(within(card).getByTestId('key-status').dataset.status).toBe('set'));
    expect(card.textContent).not.toContain('sk-lab-secret');
    expect(within(card).getByTestId('key-remove')).toBeTruthy();
    expect(card.textContent).toContain('The key entered here for LAB_API_KEY will be used.');

    // A fresh draft: the custom server's address and key name come back in one click.
    fireEvent.change(screen.getByTestId('provider-baseurl'), { target: { value: '' } });
    fireEvent.change(screen.getByTestId('provider-apikeyenv'), { target: { value: '' } });
    const saved = await within(card).findByTestId('use-saved-server');
    expect(saved.textContent).toBe('Use http://10.0.0.5:8000/v1 (LAB_API_KEY)');
    fireEvent.click(saved);
    expect((screen.getByTestId('provider-baseurl') as HTMLInputElement).value).toBe(
      'http://10.0.0.5:8000/v1',
    );
    expect((screen.getByTestId('provider-apikeyenv') as HTMLInputElement).value).toBe('LAB_API_KEY');

    // Removed: missing again.
    await act(async () => fireEvent.click(within(card).getByTestId('key-remove')));
    await waitFor(() => expect(within(card).getByTestId('key-status').dataset.status).toBe('missing'));
    expect(stored).toEqual({});
  });

  it('offers every registered protocol; one without wizard steps goes from judges to options and sends only generic keys', async () => {
    const builtIn = listRendererProtocols().length;
    registerRendererProtocol({ id: 'test-pointwise', title: 'Pointwise scores', description: 'Scores 1–5.' });
    const api = makeApi();
    await openNewExperimentWizard(api);
    clickNext();
    const choices = screen.getAllByRole('radio');
    // The registered protocols in order, the test's own last.
    expect(choices.map((c) => (c as HTMLInputElement).value)).toEqual(
      listRendererProtocols().map((p) => p.id),
    );
    // The built-in protocols, then the test's own.
    const own = choices.length - 1;
    expect(choices).toHaveLength(builtIn + 1);
    expect((choices[own] as HTMLInputElement).value).toBe('test-pointwise');
    expect((choices[0] as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText('Pointwise scores')).toBeTruthy();
    fireEvent.click(choices[own]);
    expect(within(screen.getByRole('list', { name: 'Setup steps' })).queryByText('Translation')).toBeNull();
    clickNext();
    expect(stepTitle()).toBe('Who judges?');
    clickNext();
    expect(stepTitle()).toBe('Options');
    expect(screen.queryByTestId('option-tie-probes')).toBeNull();
    clickNext();
    await screen.findByTestId('estimate-table');
    const sent = api.calls.find((c) => c.method === 'experiments.estimate')!.params as { config: unknown };
    expect(sent.config).toEqual({
      name: expect.stringMatching(/^LLMBar \(sample\) /),
      protocol: 'test-pointwise',
      dataset: 1,
      providers: {
        openai: { kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY', rpm: 500, tpm: 200000, concurrency: 16 },
      },
      judges: [{ label: 'gpt-4.1-mini', provider: 'openai', model: 'gpt-4.1-mini', temperature: 0 }],
    });
  });
});
