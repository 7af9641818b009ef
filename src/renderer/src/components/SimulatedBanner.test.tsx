// Issue 38 item 1: the "Simulated results" banner is the app's provenance label, so it must be on
// every page of a simulated experiment, once, and on no page of any other. Moving between pages
// by the app's own navigation (no reload) left copies behind: the banner and the page were
// siblings keyed by the same experiment id, and React lost the banner among duplicate keys.
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setApi } from '../api';
import { App } from '../App';
import '../i18n';
import '../protocols';
import { navigate, type Route } from '../stores/route';
import { experimentDetail, FakeApi } from '../test/fake-api';

const SIMULATED = 2;
const REAL = 1;

/** A core that knows two experiments; its answers to `experiments.get` wait while `hold` says so. */
function twoExperiments(hold: { on: boolean; release: (() => void)[] } = { on: false, release: [] }) {
  return new FakeApi({
    'experiments.get': async ({ experimentId }) => {
      if (hold.on) await new Promise<void>((r) => hold.release.push(r));
      return experimentDetail({ id: experimentId, simulated: experimentId === SIMULATED });
    },
    'experiments.list': () => [],
  });
}

const banners = () => screen.queryAllByTestId('simulated-banner');

async function go(route: Route) {
  await act(async () => navigate(route));
}

/** Lets every answer the fake core gave so far be drawn (its answers come in a few turns). */
async function settled() {
  await act(async () => {
    for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 0));
  });
}

afterEach(() => {
  setApi(null);
  window.history.replaceState(null, '', '/');
});

describe('the simulated banner across pages (issue 38 item 1)', () => {
  it('is shown once on every page of the simulated experiment and never on another', async () => {
    // The app's pages ask for much more than this fake answers; they show their own errors.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const api = twoExperiments();
    setApi(api);
    window.location.hash = '#/experiments';
    render(<App />);
    const pagesOfSimulated: Route[] = [
      { name: 'experiment', experimentId: SIMULATED },
      { name: 'experiment-page', experimentId: SIMULATED, page: 'annotation', query: {} },
      { name: 'results', experimentId: SIMULATED },
    ];
    const pagesOfReal: Route[] = [
      { name: 'experiment', experimentId: REAL },
      { name: 'experiment-page', experimentId: REAL, page: 'annotation', query: {} },
      { name: 'results', experimentId: REAL },
    ];
    for (let round = 0; round < 3; round++) {
      for (const route of pagesOfSimulated) {
        await go(route);
        await waitFor(() => expect(banners()).toHaveLength(1));
      }
      await go({ name: 'experiments' });
      expect(banners()).toHaveLength(0);
      for (const route of pagesOfReal) {
        await go(route);
        await settled();
        expect(banners()).toHaveLength(0);
      }
      // Straight from one experiment to the other, both ways.
      await go({ name: 'experiment', experimentId: SIMULATED });
      await waitFor(() => expect(banners()).toHaveLength(1));
      await go({ name: 'results', experimentId: REAL });
      await settled();
      expect(banners()).toHaveLength(0);
    }
  });

  it("does not show one experiment's answer on the next while the next is still being asked about", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const hold = { on: false, release: [] as (() => void)[] };
    const api = twoExperiments(hold);
    setApi(api);
    window.location.hash = `#/experiments/${SIMULATED}/results`;
    render(<App />);
    await waitFor(() => expect(banners()).toHaveLength(1));
    hold.on = true;
    await go({ name: 'results', experimentId: REAL });
    // The core has not answered for the real experiment yet: the simulated one's banner is gone.
    expect(banners()).toHaveLength(0);
    hold.on = false;
    await act(async () => hold.release.splice(0).forEach((r) => r()));
    await settled();
    expect(banners()).toHaveLength(0);
  });
});
