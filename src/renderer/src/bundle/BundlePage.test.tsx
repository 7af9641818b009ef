// The bundle page on a report where one recomputed file differs: the verdict counts it, the row
// says where, model text in the difference stays text, and the page speaks 中文 too. Its results
// and plan (issue 38 §8) are read through the opened bundle's session only, and it is closed when
// the page goes.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { OpenedBundleReport } from '../../../shared/paper/bundle';
import type { PreregistrationLock } from '../../../shared/paper/preregistration';
import { setApi } from '../api';
import { i18next } from '../i18n';
import { FakeApi } from '../test/fake-api';
import '../protocols';
import { BundlePage } from './BundlePage';
import { unmountAndDropApiAfterEach } from '../test/dom';

unmountAndDropApiAfterEach({ backToEnglish: true });

const REPORT: OpenedBundleReport = {
  session: 's-1',
  file: 'study.judgelab',
  preregistration: null,
  experiment: { name: 'study <i>one</i>', protocol: 'judge-ls', status: 'finished' },
  entries: 12,
  replayed: 40,
  identical: false,
  simulated: false,
  notRecompared: [
    { file: 'export/methods.md', reason: 'methods' },
    { file: 'export/figures/f.png', reason: 'unreadable', detail: 'not a PNG' },
  ],
  checks: [
    { file: 'export/metrics.json', equal: true, differences: [] },
    {
      file: 'export/tables/quality.csv',
      equal: false,
      differences: [{ where: 'line 3', stored: '<b>0.81</b>', recomputed: '0.80' }],
    },
  ],
  tables: [
    {
      id: 'quality',
      title: 'Judge quality',
      caption: 'Accuracy per judge.',
      columns: [
        { key: 'judge', header: 'Judge', kind: 'text', align: 'l' },
        { key: 'n', header: 'n', kind: 'int', align: 'r' },
      ],
      rows: [{ judge: 'GPT', n: 40 }],
    },
  ],
};

const LOCK: PreregistrationLock = {
  version: 1,
  plan: {
    confirmatory: ['flip_rate:EN-ZH'],
    hypotheses: 'Orders <em>hold</em>.',
    alpha: 0.05,
    correction: 'holm',
    exclusions: 'none',
    stopping: 'all items',
  },
  snapshot: {
    protocol: 'plain',
    config: {},
    items: 4,
    itemsSha256: 'a'.repeat(64),
    judges: ['simulated / j'],
    answersAtLock: 0,
    editedAtLock: 0,
    comparisons: [],
  },
  reason: null,
  lockedAt: '2026-12-06T10:00:00.000Z',
  sha256: 'b'.repeat(64),
};

async function openWith(api: FakeApi) {
  setApi(api);
  render(<BundlePage />);
  const input = screen.getByTestId('bundle-file');
  fireEvent.change(input, { target: { files: [new File([new Uint8Array([1, 2, 3])], 'study.judgelab')] } });
}

describe('BundlePage', () => {
  it('shows the report read-only: the differing file counted and located, text as text', async () => {
    const api = new FakeApi({ 'bundles.open': () => REPORT });
    await openWith(api);
    await waitFor(() => expect(screen.getByTestId('bundle-report')).toBeTruthy());
    expect(api.calls[0]).toEqual({
      method: 'bundles.open',
      params: { fileName: 'study.judgelab', contentBase64: 'AQID' },
    });
    expect(screen.getByTestId('bundle-verdict').textContent).toBe(
      '1 of 2 recomputed files differs from the stored one.',
    );
    const row = within(screen.getByTestId('bundle-checks'))
      .getByText('export/tables/quality.csv')
      .closest('tr')!;
    expect(row.getAttribute('data-equal')).toBe('false');
    expect(row.textContent).toContain('line 3: stored <b>0.81</b> · recomputed 0.80');
    expect(row.querySelector('b')).toBeNull();
    expect(screen.getByTestId('bundle-experiment').textContent).toBe('study <i>one</i>');
    expect(within(screen.getByTestId('bundle-table-quality')).getByText('GPT')).toBeTruthy();
    // Files not made again are listed apart, with why, and counted neither equal nor different.
    const notRecompared = screen.getByTestId('bundle-not-recompared');
    expect(notRecompared.querySelector('[data-file="export/methods.md"]')!.textContent).toBe(
      'export/methods.md: written from the original run’s dates and times of answers, which a replay cannot reproduce',
    );
    expect(notRecompared.querySelector('[data-file="export/figures/f.png"]')!.textContent).toBe(
      'export/figures/f.png: could not be read or drawn again here (not a PNG)',
    );
    expect(within(screen.getByTestId('bundle-checks')).queryByText('export/methods.md')).toBeNull();
  });

  it("reads the results through the bundle's session only, shows its plan, and closes it when left", async () => {
    const table = REPORT.tables[0];
    const api = new FakeApi({
      'bundles.open': () => ({
        ...REPORT,
        // A protocol without a renderer plug-in: the generic sections, every table as is.
        experiment: { ...REPORT.experiment, protocol: 'plain' },
        preregistration: {
          locks: [LOCK],
          manifestMatches: true,
          manifestSha256: LOCK.sha256,
          deviations: [{ kind: 'judges', text: 'Judges added after the lock: <b>x</b>.' }],
          comparisons: [],
        },
      }),
      'bundles.read': ({ method }) => {
        if (method === 'experiments.results')
          return {
            protocol: 'plain',
            metrics: {},
            tables: [{ ...table, rows: [{ judge: 'From the bundle', n: 7 }] }],
            flagged: [],
            counts: { planned: 1, ok: 1, failed: 0, pending: 0 },
            simulated: false,
          };
        if (method === 'experiments.verdictLinks') return { links: [] };
        throw new Error(`unexpected ${method}`);
      },
      'bundles.close': () => ({ closed: true }),
    });
    await openWith(api);
    fireEvent.click(await screen.findByTestId('bundle-tab-results'));
    expect(await screen.findByText('From the bundle')).toBeTruthy();
    fireEvent.click(screen.getByTestId('bundle-tab-plan'));
    expect(screen.getByTestId('prereg-sha256').textContent).toBe(LOCK.sha256);
    expect(screen.getByTestId('bundle-plan-manifest').getAttribute('data-matches')).toBe('true');
    expect(screen.getByTestId('prereg-lock').textContent).toContain('Orders <em>hold</em>.');
    const deviations = screen.getByTestId('bundle-plan-deviations');
    expect(deviations.textContent).toContain('Judges added after the lock: <b>x</b>.');
    expect(deviations.querySelector('b')).toBeNull();
    // Nothing but the bundle's own methods: no experiment or item call reached the app's core.
    expect(new Set(api.calls.map((c) => c.method))).toEqual(new Set(['bundles.open', 'bundles.read']));
    expect(
      api.calls
        .filter((c) => c.method === 'bundles.read')
        .every((c) => (c.params as { session: string }).session === 's-1'),
    ).toBe(true);
    cleanup();
    await waitFor(() =>
      expect(api.calls.at(-1)).toEqual({ method: 'bundles.close', params: { session: 's-1' } }),
    );
  });

  it('lists what was not recompared in 中文', async () => {
    await i18next.changeLanguage('zh');
    await openWith(new FakeApi({ 'bundles.open': () => REPORT }));
    const notRecompared = await screen.findByTestId('bundle-not-recompared');
    expect(notRecompared.textContent).toContain('未重新比较');
    expect(notRecompared.querySelector('[data-file="export/methods.md"]')!.textContent).toBe(
      'export/methods.md: 根据原始运行中回答的日期和时间写成，重放无法重现',
    );
  });

  it('names the refused entry, in 中文 too', async () => {
    await i18next.changeLanguage('zh');
    await openWith(
      new FakeApi({
        'bundles.open': () => {
          throw new Error('study.judgelab: answers.jsonl: content does not match its SHA-256 in bundle.json');
        },
      }),
    );
    await waitFor(() => expect(screen.getByTestId('bundle-error')).toBeTruthy());
    expect(screen.getByTestId('bundle-error').textContent).toBe(
      '无法打开研究包：study.judgelab: answers.jsonl: content does not match its SHA-256 in bundle.json',
    );
    expect(screen.getByText('选择研究包…')).toBeTruthy();
  });

  it("says a keyed refusal (a zip bomb's entry) in 中文, not the core's English", async () => {
    await i18next.changeLanguage('zh');
    await openWith(
      new FakeApi({
        'bundles.open': () => {
          // As the door hands it over (a plain payload).
          throw {
            code: 'invalid_input',
            message:
              'bomb.judgelab: export/a.bin: 6 GiB when unpacked, above the limit of 256 MiB for one entry',
            refusal: {
              key: 'bundle.entryTooLarge',
              params: { file: 'bomb.judgelab', entry: 'export/a.bin', size: '6 GiB', limit: '256 MiB' },
            },
          };
        },
      }),
    );
    await waitFor(() => expect(screen.getByTestId('bundle-error')).toBeTruthy());
    expect(screen.getByTestId('bundle-error').textContent).toBe(
      '无法打开研究包：bomb.judgelab：export/a.bin：解压后为 6 GiB，超过单个条目的上限 256 MiB',
    );
  });
});
