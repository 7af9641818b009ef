import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { EstimateRow } from '../../../shared/experiments';
import { setApi } from '../api';
import '../i18n';
import '../protocols';
import { PRICE_ESTIMATE_DELAY_MS, useWizard } from '../stores/wizard';
import { FakeApi, estimateOf } from '../test/fake-api';
import { unmountAndDropApiAfterEach } from '../test/dom';
import { resetWizardAndDatasets, clickNext, openNewExperimentWizard, wizardApi } from '../test/wizard';
import { demoDraft } from '../lib/demo';
import { PriceEditor } from './PriceEditor';

type SentPrices = Record<string, { input: number; cachedInput: number; output: number }> | undefined;
type SentConfig = { prices?: SentPrices; judges: { model: string }[]; transform: { model: string } };

const SHIPPED: Record<string, { input: number; cachedInput: number; output: number }> = {
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
};

/** One row per model, costed like the core does: 10k input and 1k output tokens at the price sent. */
function estimateFor(config: SentConfig) {
  const models = [...new Set([...config.judges.map((j) => j.model), config.transform.model])];
  const rows: EstimateRow[] = models.map((model) => {
    const price = config.prices?.[model] ?? SHIPPED[model];
    return {
      role: 'judge',
      label: model,
      provider: 'openai',
      model,
      kind: 'quality',
      calls: 10,
      cachedCalls: 0,
      inputTokens: 10_000,
      outputTokens: 1_000,
      costUsd: price ? (10_000 * price.input + 1_000 * price.output) / 1e6 : 0,
      priced: price !== undefined,
    };
  });
  return estimateOf(rows);
}

function makeApi() {
  return wizardApi({
    'prices.get': ({ models }) => ({
      rows: models.map((model) =>
        SHIPPED[model]
          ? { model, price: SHIPPED[model], source: 'shipped' }
          : { model, price: null, source: 'unpriced' },
      ),
      asOf: '2025-11-30',
    }),
    'experiments.estimate': ({ config }) => estimateFor(config as SentConfig),
  });
}

/** Opens the wizard's summary (choosing `judgeModel` on the judges step) and its price table. */
async function openSummary(api: FakeApi, judgeModel?: string) {
  await openNewExperimentWizard(api);
  clickNext(2);
  if (judgeModel) fireEvent.change(screen.getByTestId('judge-model'), { target: { value: judgeModel } });
  clickNext(3);
  await screen.findByTestId('estimate-table');
  fireEvent.click(screen.getByText('Prices (USD per 1M tokens)'));
}

const estimates = (api: FakeApi) =>
  api.calls
    .filter((c) => c.method === 'experiments.estimate')
    .map((c) => (c.params as { config: SentConfig }).config);
const row = (model: string) =>
  screen.getAllByTestId('price-row').find((r) => r.dataset.model === model) as HTMLElement;
const field = (model: string, name: 'input' | 'cachedInput' | 'output') =>
  within(row(model)).getByTestId(`price-${name}`) as HTMLInputElement;
const type = (model: string, name: 'input' | 'cachedInput' | 'output', value: string) =>
  fireEvent.change(field(model, name), { target: { value } });
const pause = (ms: number) => act(() => new Promise((r) => setTimeout(r, ms)));

beforeEach(resetWizardAndDatasets);
unmountAndDropApiAfterEach();

describe('Wizard price table', () => {
  it('calls the simulated models’ $0 prices free, not "edited" (issue 26 item 8)', async () => {
    setApi(makeApi());
    useWizard.setState({ draft: demoDraft(1) });
    render(<PriceEditor />);
    await waitFor(() => expect(row('sim-judge-strong').dataset.source).toBe('free'));
    expect(row('sim-judge-weak-flip20').dataset.source).toBe('free');
    expect(within(row('sim-judge-strong')).getByTestId('price-source').textContent).toBe('free');
    expect(screen.getByTestId('price-editor').querySelector('summary')!.textContent).toBe(
      'Prices (USD per 1M tokens)',
    );
    // A price typed over it is an edit again.
    type('sim-judge-weak-flip20', 'output', '2');
    expect(row('sim-judge-weak-flip20').dataset.source).toBe('edited');
    expect(screen.getByTestId('price-editor').querySelector('summary')!.textContent).toBe(
      'Prices (USD per 1M tokens) · 1 edited',
    );
  });

  it('sends an edited price to the estimate (once typing pauses) and to the created experiment; reset removes it', async () => {
    const api = makeApi();
    await openSummary(api);
    expect(screen.getAllByTestId('price-row').map((r) => r.dataset.model)).toEqual(['gpt-4.1-mini']);
    await waitFor(() => expect(row('gpt-4.1-mini').dataset.source).toBe('shipped'));
    expect([field('gpt-4.1-mini', 'input').value, field('gpt-4.1-mini', 'output').value]).toEqual([
      '0.4',
      '1.6',
    ]);
    expect(screen.getByTestId('price-editor').textContent).toContain('as of 2025-11-30');
    expect(screen.getByTestId('estimate-total-cost').textContent).toBe('$0.0056');
    expect(estimates(api)).toHaveLength(1);
    expect(estimates(api)[0].prices).toBeUndefined();

    // Three keystrokes, one new estimate, with the last value.
    type('gpt-4.1-mini', 'input', '0.');
    type('gpt-4.1-mini', 'input', '0.8');
    type('gpt-4.1-mini', 'input', '0.85');
    expect(row('gpt-4.1-mini').dataset.source).toBe('edited');
    expect(row('gpt-4.1-mini').textContent).toContain('shipped: $0.40 / $0.10 / $1.60');
    await waitFor(() => expect(screen.getByTestId('estimate-total-cost').textContent).toBe('$0.0101'));
    expect(estimates(api)).toHaveLength(2);
    expect(estimates(api)[1].prices).toEqual({
      'gpt-4.1-mini': { input: 0.85, cachedInput: 0.1, output: 1.6 },
    });

    fireEvent.click(within(row('gpt-4.1-mini')).getByTestId('price-reset'));
    expect(row('gpt-4.1-mini').dataset.source).toBe('shipped');
    expect(field('gpt-4.1-mini', 'input').value).toBe('0.4');
    await waitFor(() => expect(estimates(api)).toHaveLength(3));
    expect(estimates(api)[2].prices).toBeUndefined();
    await waitFor(() => expect(screen.getByTestId('estimate-total-cost').textContent).toBe('$0.0056'));

    type('gpt-4.1-mini', 'output', '2');
    await waitFor(() => expect(estimates(api)).toHaveLength(4));
    await waitFor(() => expect(screen.getByTestId('estimate-total-cost').textContent).toBe('$0.006'));
    fireEvent.click(screen.getByTestId('create-and-start'));
    await waitFor(() => expect(window.location.hash).toBe('#/experiments/7'));
    const created = api.calls.find((c) => c.method === 'experiments.create')!.params as {
      config: SentConfig;
    };
    expect(created.config.prices).toEqual({ 'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 2 } });
  });

  it('shows an unknown model as unpriced and checks its price inline before estimating or creating', async () => {
    const api = makeApi();
    await openSummary(api, 'my-finetune');
    // The transformer still follows the OpenAI preset's translation model.
    expect(screen.getAllByTestId('price-row').map((r) => r.dataset.model)).toEqual([
      'my-finetune',
      'gpt-4.1-mini',
    ]);
    await waitFor(() => expect(row('my-finetune').dataset.source).toBe('unpriced'));
    expect(within(row('my-finetune')).getByTestId('price-source').textContent).toBe('unpriced');
    expect(field('my-finetune', 'input').value).toBe('');
    expect(within(row('my-finetune')).queryByTestId('price-reset')).toBeNull();
    const before = estimates(api).length;

    type('my-finetune', 'output', '-1');
    const errors = within(row('my-finetune'))
      .getAllByRole('alert')
      .map((e) => e.textContent);
    expect(errors).toEqual([
      'Enter a price (USD per 1M tokens); 0 if the model is free.',
      'Enter a number of 0 or more, e.g. 0.4.',
    ]);
    expect(field('my-finetune', 'output').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('estimate-stale')).toBeTruthy();
    expect((screen.getByTestId('create-and-start') as HTMLButtonElement).disabled).toBe(true);
    await pause(PRICE_ESTIMATE_DELAY_MS + 150);
    expect(estimates(api)).toHaveLength(before);

    type('my-finetune', 'input', '1');
    type('my-finetune', 'output', '3');
    expect(within(row('my-finetune')).queryAllByRole('alert')).toHaveLength(0);
    await waitFor(() => expect(estimates(api)).toHaveLength(before + 1));
    // Cached input left empty means the same as input.
    expect(estimates(api)[before].prices).toEqual({ 'my-finetune': { input: 1, cachedInput: 1, output: 3 } });
    await waitFor(() =>
      expect((screen.getByTestId('create-and-start') as HTMLButtonElement).disabled).toBe(false),
    );
    expect(screen.queryByTestId('estimate-stale')).toBeNull();
    expect(within(row('my-finetune')).getByTestId('price-reset').textContent).toBe('Remove price');
  });
});
