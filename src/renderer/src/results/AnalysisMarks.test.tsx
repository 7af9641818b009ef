import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import type { ExperimentResults } from '../../../shared/experiments';
import { markConfirmatory, type ConfirmatoryMarks } from '../../../shared/paper/confirmatory';
import { col, type Table } from '../../../shared/report/table';
import { setApi } from '../api';
import '../i18n';
import { FakeApi } from '../test/fake-api';
import { ResultsPage } from './ResultsPage';
import { unmountAndDropApiAfterEach } from '../test/dom';

unmountAndDropApiAfterEach({ backToEnglish: true });

const TABLE: Table = {
  id: 'changes',
  title: 'Changes',
  caption: 'One row per judge and comparison.',
  columns: [col('judge', 'Judge', 'text'), col('comparison', 'Comparison', 'text'), col('n', 'n', 'int')],
  rows: [
    { judge: 'J1', comparison: 'EN-ZH', n: 40 },
    { judge: 'J1', comparison: 'EN-LS', n: 38 },
    { judge: 'J2', comparison: 'EN-ZH', n: 39 },
  ],
};
const MARKS: ConfirmatoryMarks = {
  version: 1,
  reads: [{ comparison: 'change:EN-ZH', rows: [{ table: 'changes', where: { comparison: 'EN-ZH' } }] }],
};

function show(marks: ConfirmatoryMarks | null) {
  const results: ExperimentResults = {
    protocol: 'unplugged',
    metrics: {},
    tables: markConfirmatory([TABLE], marks),
    flagged: [],
    counts: { planned: 117, ok: 117, failed: 0, pending: 0 },
    simulated: false,
    ...(marks ? { confirmatory: marks } : {}),
  };
  setApi(
    new FakeApi({
      'experiments.results': () => results,
      'experiments.get': () => ({ id: 7, name: 'Pilot', datasetName: 'LLMBar', datasetId: 1 }),
    }),
  );
  render(<ResultsPage experimentId={7} excludeFlagged={false} onNavigate={() => {}} />);
}

/** Each row's comparison and the mark shown in it, in the order on screen. */
async function shownMarks() {
  const table = await screen.findByTestId('table-changes');
  return within(table)
    .getAllByTestId('results-row')
    .map((tr) => [
      tr.querySelector('[data-column="comparison"]')!.textContent,
      tr.querySelector('[data-column="analysis"]')?.textContent ?? null,
    ]);
}

describe('Confirmatory and exploratory rows', () => {
  it('marks each row a confirmatory comparison reads, and keeps the marks when sorted', async () => {
    show(MARKS);
    await waitFor(async () =>
      expect(await shownMarks()).toEqual([
        ['EN-ZH', 'Confirmatory'],
        ['EN-LS', 'Exploratory'],
        ['EN-ZH', 'Confirmatory'],
      ]),
    );
    const table = screen.getByTestId('table-changes');
    expect(within(table).getByRole('button', { name: /Analysis/ })).toBeTruthy();
    expect(within(table).getAllByTestId('analysis-confirmatory')[0].getAttribute('title')).toBe(
      'Read by a comparison the preregistration made confirmatory',
    );
    fireEvent.click(within(table).getByRole('button', { name: /^n/ }));
    expect(await shownMarks()).toEqual([
      ['EN-LS', 'Exploratory'],
      ['EN-ZH', 'Confirmatory'],
      ['EN-ZH', 'Confirmatory'],
    ]);
  });

  it('says it in Chinese on the 中文 page', async () => {
    await i18next.changeLanguage('zh');
    show(MARKS);
    await waitFor(async () =>
      expect((await shownMarks()).map(([, m]) => m)).toEqual(['验证性', '探索性', '验证性']),
    );
    expect(within(screen.getByTestId('table-changes')).getByRole('button', { name: /分析/ })).toBeTruthy();
  });

  it('names the rows of a plan locked after data so, in English and Chinese, never confirmatory', async () => {
    show({ ...MARKS, afterData: 360 });
    await waitFor(async () =>
      expect(await shownMarks()).toEqual([
        ['EN-ZH', 'Registered after data collection'],
        ['EN-LS', 'Exploratory'],
        ['EN-ZH', 'Registered after data collection'],
      ]),
    );
    const table = screen.getByTestId('table-changes');
    expect(within(table).queryByTestId('analysis-confirmatory')).toBeNull();
    expect(table.closest('section')?.textContent ?? table.textContent).not.toMatch(/Confirmatory/);
    cleanup();
    await i18next.changeLanguage('zh');
    show({ ...MARKS, afterData: 360 });
    await waitFor(async () =>
      expect((await shownMarks()).map(([, m]) => m)).toEqual(['数据收集后登记', '探索性', '数据收集后登记']),
    );
  });

  it('shows no column without a lock', async () => {
    show(null);
    await waitFor(async () => expect((await shownMarks()).map(([, m]) => m)).toEqual([null, null, null]));
    expect(
      within(screen.getByTestId('table-changes')).queryByRole('button', { name: /Analysis/ }),
    ).toBeNull();
  });
});
