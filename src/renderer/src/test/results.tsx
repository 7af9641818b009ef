// A protocol's results page as its section tests open it: the results and the experiment's
// header served by a fake API, and the generic ResultsPage rendered for that experiment.
import { render } from '@testing-library/react';
import type { ComponentType } from 'react';
import { vi } from 'vitest';
import type { ExperimentResults } from '../../../shared/experiments';
import type { ProtocolPageProps } from '../protocols/registry';
import { setApi } from '../api';
import { ResultsPage } from '../results/ResultsPage';
import { FakeApi } from './fake-api';

type Handlers = ConstructorParameters<typeof FakeApi>[0];

/** What the results page header reads of the experiment. */
export type ResultsExperiment = { id: number; name: string; datasetName: string; datasetId: number };

/** A fake API serving `results` for `experiment`; `over` adds what a protocol's sections also call. */
export function resultsApi(
  results: ExperimentResults<unknown>,
  experiment: ResultsExperiment,
  over: Handlers = {},
): FakeApi {
  return new FakeApi({
    'experiments.results': () => results,
    'experiments.get': () => experiment,
    ...over,
  } as Handlers);
}

/** The results page of experiment `experimentId`, flagged items included. */
export function renderResultsPage(experimentId: number) {
  return render(<ResultsPage experimentId={experimentId} excludeFlagged={false} onNavigate={() => {}} />);
}

/**
 * A protocol's own page (an item browser) for experiment `experimentId` at the URL's `query`, its
 * view served by a fake API; `onNavigate` records where the page sends the person.
 */
export function renderProtocolPage(
  Page: ComponentType<ProtocolPageProps>,
  experimentId: number,
  query: Record<string, string>,
  view: unknown,
) {
  const api = new FakeApi({ 'experiments.protocolView': () => view } as Handlers);
  setApi(api);
  const onNavigate = vi.fn();
  render(<Page experimentId={experimentId} query={query} onNavigate={onNavigate} />);
  return { api, onNavigate };
}
