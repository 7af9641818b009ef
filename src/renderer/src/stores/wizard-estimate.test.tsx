// The summary's estimate belongs to the draft on screen: an answer that arrives after an edit
// (another protocol chosen, "Start over") is for the old draft and is dropped, so the summary
// asks again instead of showing the previous protocol's calls and costs.
import { afterEach, describe, expect, it } from 'vitest';
import { setApi } from '../api';
import '../protocols';
import { FakeApi, estimateOf } from '../test/fake-api';
import { useWizard } from './wizard';

afterEach(() => {
  setApi(null);
  useWizard.getState().reset();
});

describe('the wizard estimate', () => {
  it('drops an answer that arrives after the draft was edited', async () => {
    let answer: (v: unknown) => void = () => {};
    setApi(
      new FakeApi({
        'experiments.estimate': () => new Promise((resolve) => (answer = resolve)),
      }),
    );
    const w = useWizard.getState();
    const pending = w.loadEstimate();
    expect(useWizard.getState().estimate.status).toBe('loading');
    // Another protocol is chosen while the old draft's estimate is on its way.
    w.setProtocol('bias-probes');
    answer(estimateOf([]));
    await pending;
    expect(useWizard.getState().estimate.status).toBe('idle');
  });

  it('shows an answer for the draft as it still is', async () => {
    setApi(new FakeApi({ 'experiments.estimate': () => estimateOf([]) }));
    await useWizard.getState().loadEstimate();
    expect(useWizard.getState().estimate.status).toBe('done');
  });
});
