// The Judge-LS options step's interval switch: Wilson or the item-clustered bootstrap, shown in
// the summary (both languages) and carried by the config the wizard estimates and saves.
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setApi } from '../../../api';
import { i18next } from '../../../i18n';
import '../../index';
import type { FakeApi } from '../../../test/fake-api';
import {
  resetWizardAndDatasets,
  clickNext,
  lastConfigSent,
  openNewExperimentWizard,
  wizardApi,
} from '../../../test/wizard';

beforeEach(async () => {
  resetWizardAndDatasets();
  await act(() => i18next.changeLanguage('en'));
});
afterEach(async () => {
  cleanup();
  setApi(null);
  await act(() => i18next.changeLanguage('en'));
});

/** Opens the wizard on its options step, where the interval and noise-floor switches are. */
async function openOptionsStep(api: FakeApi) {
  await openNewExperimentWizard(api);
  clickNext(4);
}

describe('the Judge-LS interval switch in the wizard', () => {
  it('defaults to Wilson; choosing the clustered bootstrap shows in the summary and goes into the saved config', async () => {
    const api = wizardApi();
    await openOptionsStep(api);
    const select = screen.getByTestId('option-ci') as HTMLSelectElement;
    expect(select.value).toBe('wilson');
    expect([...select.options].map((o) => o.textContent)).toEqual([
      'Wilson (verdicts independent)',
      'Item-clustered bootstrap',
    ]);
    fireEvent.change(select, { target: { value: 'cluster-bootstrap' } });
    clickNext();
    expect(screen.getByTestId('summary-ci').textContent).toBe('Item-clustered bootstrap');
    await waitFor(() => expect(lastConfigSent(api, 'experiments.estimate').ci).toBe('cluster-bootstrap'));

    await act(() => i18next.changeLanguage('zh'));
    expect(screen.getByTestId('summary-ci').textContent).toBe('按条目聚类的自助法');
    expect(screen.getByText('置信区间')).toBeTruthy();

    fireEvent.click(screen.getByTestId('create-and-start'));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'experiments.create')).toBe(true));
    expect(lastConfigSent(api, 'experiments.create').ci).toBe('cluster-bootstrap');
    // Off by default: the saved config does not name it.
    expect('noiseFloor' in lastConfigSent(api, 'experiments.create')).toBe(false);
  }, 30_000);

  it('measures the noise floor only when ticked: the estimate and the saved config carry noiseFloor then', async () => {
    const api = wizardApi();
    await openOptionsStep(api);
    const box = screen.getByTestId('option-noise-floor') as HTMLInputElement;
    expect(box.checked).toBe(false);
    expect(screen.getByText('Measure the noise floor')).toBeTruthy();
    fireEvent.click(box);
    await act(() => i18next.changeLanguage('zh'));
    expect(screen.getByText('测量噪声底线')).toBeTruthy();
    clickNext();
    expect(screen.getByTestId('summary-noise-floor').textContent).toBe('是');
    await waitFor(() => expect(lastConfigSent(api, 'experiments.estimate').noiseFloor).toBe(true));
    // The estimate is sent before its answer enables the button: a click before that is dropped.
    await waitFor(() =>
      expect((screen.getByTestId('create-and-start') as HTMLButtonElement).disabled).toBe(false),
    );
    fireEvent.click(screen.getByTestId('create-and-start'));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'experiments.create')).toBe(true));
    expect(lastConfigSent(api, 'experiments.create').noiseFloor).toBe(true);
  }, 30_000);
});
