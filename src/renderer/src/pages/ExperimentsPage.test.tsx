import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { setApi } from '../api';
import '../i18n';
import { useExperiments } from '../stores/experiments';
import { FakeApi, experimentSummary } from '../test/fake-api';
import '../protocols';
import { ExperimentsPage } from './ExperimentsPage';
import { unmountAndDropApiAfterEach } from '../test/dom';

beforeEach(() => useExperiments.setState({ experiments: [], loaded: false, error: null }));
unmountAndDropApiAfterEach();

describe('Experiments list', () => {
  it('says what to do when there is no experiment yet', async () => {
    setApi(new FakeApi({ 'experiments.list': () => [] }));
    render(<ExperimentsPage />);
    const button = await screen.findByTestId('new-experiment');
    expect(button.getAttribute('href')).toBe('#/experiments/new');
    expect(screen.getByText('No experiments yet')).toBeTruthy();
  });

  it('badges simulated experiments, and only those', async () => {
    setApi(
      new FakeApi({
        'experiments.list': () => [
          experimentSummary({ id: 1, name: 'demo', simulated: true }),
          experimentSummary({ id: 2, name: 'real', simulated: false }),
        ],
      }),
    );
    render(<ExperimentsPage />);
    const rows = await screen.findAllByTestId('experiment-row');
    expect(rows[0].querySelector('[data-testid="simulated-badge"]')?.textContent).toBe('Simulated');
    expect(rows[1].querySelector('[data-testid="simulated-badge"]')).toBeNull();
    // The keyless demo is offered beside "New experiment".
    expect(screen.getByTestId('try-demo').textContent).toBe('Try it without API keys');
  });

  it('says on the row which stored config field must be fixed before it can run', async () => {
    const problem = 'providers.o.apiKeyEnv: must be an environment variable name in capitals';
    setApi(
      new FakeApi({
        'experiments.list': () => [
          experimentSummary({ id: 1, name: 'old', configProblem: problem }),
          experimentSummary({ id: 2, name: 'fine' }),
        ],
      }),
    );
    render(<ExperimentsPage />);
    const rows = await screen.findAllByTestId('experiment-row');
    expect(rows[0].querySelector('[data-testid="config-problem"]')?.textContent).toBe(
      `Cannot run until fixed: ${problem}`,
    );
    expect(rows[1].querySelector('[data-testid="config-problem"]')).toBeNull();
  });

  it('lists status and progress, and deletes only after confirmation', async () => {
    let list = [experimentSummary({ status: 'paused', counts: { planned: 54, done: 20, failed: 2 } })];
    const api = new FakeApi({
      'experiments.list': () => list,
      'experiments.delete': () => {
        list = [];
        return { deleted: true };
      },
    });
    setApi(api);
    render(<ExperimentsPage />);
    const row = await screen.findByTestId('experiment-row');
    expect(row.textContent).toContain('paused');
    expect(screen.getByTestId('experiment-progress').textContent).toContain('20 / 54 calls');
    expect(screen.getByTestId('experiment-progress').textContent).toContain('2 failed');

    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(api.calls.some((c) => c.method === 'experiments.delete')).toBe(false);
    expect(row.textContent).toContain('Delete “LLMBar (sample) 2025-01-02” and all its results?');
    fireEvent.click(screen.getAllByRole('button', { name: 'Delete' })[0]);
    await waitFor(() => expect(screen.queryByTestId('experiment-row')).toBeNull());
    expect(api.calls.find((c) => c.method === 'experiments.delete')!.params).toEqual({ experimentId: 7 });
  });

  it('shows each experiment’s protocol (issue 26 item 1)', async () => {
    setApi(
      new FakeApi({
        'experiments.list': () => [
          experimentSummary({ id: 1, name: 'a', protocol: 'judge-ls' }),
          experimentSummary({ id: 2, name: 'b', protocol: 'reference-sensitivity' }),
          experimentSummary({ id: 3, name: 'c', protocol: 'not-installed' }),
        ],
      }),
    );
    render(<ExperimentsPage />);
    const rows = await screen.findAllByTestId('experiment-row');
    expect(rows.map((r) => r.querySelector('[data-testid="experiment-protocol"]')!.textContent)).toEqual([
      'Protocol: Judge-LS: language sensitivity',
      'Protocol: Reference sensitivity',
      'Protocol: not-installed',
    ]);
    expect(document.querySelector('.page__intro')!.textContent).not.toMatch(/Chinese/);
  });
});
