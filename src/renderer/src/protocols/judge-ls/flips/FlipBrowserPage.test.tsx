import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { Item } from '../../../../../shared/domain';
import type { JudgmentView, VariantView } from '../../../../../shared/protocols/judge-ls/views';
import { setApi } from '../../../api';
import '../../../i18n';
import { FakeApi, progress, protocolViews } from '../../../test/fake-api';
import { FlipBrowserPage } from './FlipBrowserPage';
import type { ResultsRoute } from '../../../results/routes';
import { judgment, verdictsOf } from '../results/test-fixtures';
import { variant } from '../test-fixtures';
import { giveElementsAWindowBox, unmountAndDropApiAfterEach } from '../../../test/dom';

giveElementsAWindowBox();
unmountAndDropApiAfterEach();

const ITEMS: Item[] = [1, 2, 3].map((n) => ({
  id: n,
  datasetId: 1,
  sourceId: `X-00${n}`,
  position: n,
  subset: 'Natural',
  instruction: `Instruction ${n}`,
  output1: `First ${n}`,
  output2: `Second ${n}`,
  label: 1,
}));

const JUDGMENTS: JudgmentView[] = [
  judgment({
    itemId: 1,
    language: 'EN',
    order: 'orig',
    winner: 'A',
    reason: 'A is more accurate and concise.',
  }),
  judgment({
    itemId: 1,
    language: 'ZH',
    order: 'orig',
    winner: 'B',
    reason: '<img src=x onerror=alert(1)> B 更简洁。',
  }),
  judgment({ itemId: 1, language: 'LS', order: 'orig', winner: 'A' }),
  ...verdictsOf({ itemId: 1, order: 'swap' }, { EN: 'B', ZH: 'B' }),
  judgment({ itemId: 1, language: 'EN-ZH', order: 'en_zh', winner: 'tie' }),
  judgment({ itemId: 2, language: 'EN', order: 'orig', winner: 'A' }),
  judgment({ itemId: 2, language: 'LS', order: 'orig', winner: 'tie' }),
  judgment({ itemId: 3, language: 'EN', order: 'orig', winner: 'B' }),
  judgment({
    itemId: 3,
    language: 'ZH',
    order: 'orig',
    status: 'failed',
    winner: null,
    failureReason: 'invalid answer',
  }),
  judgment({ judge: 'J2', itemId: 3, language: 'EN', order: 'swap', winner: 'A' }),
  judgment({ judge: 'J2', itemId: 3, language: 'ZH', order: 'swap', winner: 'B' }),
];

const VARIANTS: VariantView[] = [variant()];

function Harness({ initial, log }: { initial: Record<string, string>; log: ResultsRoute[] }) {
  const [query, setQuery] = useState(initial);
  return (
    <FlipBrowserPage
      experimentId={7}
      query={query}
      onNavigate={(r) => {
        log.push(r);
        if (r.name === 'experiment-page') setQuery(r.query);
      }}
    />
  );
}

function setup(initial: Record<string, string> = {}, judgments: () => JudgmentView[] = () => JUDGMENTS) {
  const api = new FakeApi({
    'experiments.protocolView': protocolViews({ judgments, variants: () => VARIANTS }),
    'experiments.flagged': () => ({
      flagged: [{ item_id: 'X-002', reasons: ['LS.output_1: empty'] }],
    }),
    'experiments.get': () => ({ id: 7, datasetId: 1, name: 'Pilot study' }),
    'items.get': (p) => ITEMS.find((i) => i.id === (p as { itemId: number }).itemId),
    'items.list': (p) => {
      const q = (p as { search: string }).search;
      return ITEMS.filter((i) => i.instruction.includes(q)).map((i) => ({ id: i.id }));
    },
  });
  setApi(api);
  const log: ResultsRoute[] = [];
  render(<Harness initial={initial} log={log} />);
  return { api, log };
}

const rowItems = () =>
  screen.getAllByTestId('flip-row').map((r) => r.querySelector('[role="cell"]')!.textContent);

describe('Flip browser', () => {
  it('has a breadcrumb back to the experiment, its results and the list', async () => {
    setup();
    const crumb = await screen.findByTestId('flips-breadcrumb');
    expect(within(crumb).getByTestId('breadcrumb-experiment').getAttribute('href')).toBe('#/experiments/7');
    // The experiment by its name, not a generic "Run" (issue 26 item 8).
    await waitFor(() =>
      expect(within(crumb).getByTestId('breadcrumb-experiment').textContent).toBe('Pilot study'),
    );
    expect(within(crumb).getByRole('link', { name: 'Experiments' }).getAttribute('href')).toBe(
      '#/experiments',
    );
    expect(within(crumb).getByRole('link', { name: 'Results' })).toBeTruthy();
  });

  it('shows new flips as verdicts arrive during a run', async () => {
    let stored: JudgmentView[] = [];
    const { api } = setup({}, () => stored);
    expect((await screen.findByTestId('flips-empty')).textContent).toBe('No judgments yet.');
    stored = JUDGMENTS;
    act(() => api.emit('run.progress', progress({ experimentId: 7 })));
    await waitFor(() => expect(screen.getAllByTestId('flip-row')).toHaveLength(3));
    expect(screen.getByTestId('flip-count').textContent).toBe('3 of 3 flips');
  });

  it('lists the flips computed from the judgments and filters them through the URL', async () => {
    const { log } = setup();
    await waitFor(() => expect(screen.getAllByTestId('flip-row')).toHaveLength(3));
    expect(screen.getByTestId('flip-count').textContent).toBe('3 of 3 flips');
    expect(rowItems()).toEqual(['X-001', 'X-002 ⚑', 'X-003']);
    fireEvent.change(screen.getByTestId('filter-comparison'), { target: { value: 'EN-LS' } });
    expect(log.at(-1)).toEqual({
      name: 'experiment-page',
      page: 'flips',
      experimentId: 7,
      query: { comparison: 'EN-LS' },
    });
    await waitFor(() => expect(rowItems()).toEqual(['X-002 ⚑']));
    fireEvent.change(screen.getByTestId('filter-comparison'), { target: { value: '' } });
    fireEvent.change(screen.getByTestId('filter-flagged'), { target: { value: 'no' } });
    await waitFor(() => expect(rowItems()).toEqual(['X-001', 'X-003']));
    expect(log.at(-1)).toEqual({
      name: 'experiment-page',
      page: 'flips',
      experimentId: 7,
      query: { flagged: 'no' },
    });
  });

  it('opens deep links with their filters, and searches instructions through the core', async () => {
    setup({ judge: 'J2' });
    await waitFor(() => expect(rowItems()).toEqual(['X-003']));
    cleanup();
    // Neither an id nor a reason says "Instruction 2": only the core's item search finds it.
    const { api } = setup({ q: 'Instruction 2' });
    await waitFor(() => expect(rowItems()).toEqual(['X-002 ⚑']));
    expect(api.calls.filter((c) => c.method === 'items.list')).toEqual([
      { method: 'items.list', params: { datasetId: 1, search: 'Instruction 2' } },
    ]);
  });

  it('filters as the user types, once typing pauses, and keeps the search in the URL', async () => {
    const { log } = setup();
    await waitFor(() => expect(screen.getAllByTestId('flip-row')).toHaveLength(3));
    fireEvent.change(screen.getByTestId('flip-search'), { target: { value: 'concise' } });
    // Typing into the box is not a key command.
    fireEvent.keyDown(screen.getByTestId('flip-search'), { key: 'j' });
    await waitFor(() => expect(rowItems()).toEqual(['X-001']));
    expect(log.at(-1)).toEqual({
      name: 'experiment-page',
      page: 'flips',
      experimentId: 7,
      query: { q: 'concise' },
    });
    expect(log).toHaveLength(1);
  });

  it('opens the row under the cursor with Enter, wherever the focus is outside a control (issue 26 item 8)', async () => {
    const { log } = setup();
    await waitFor(() => expect(screen.getAllByTestId('flip-row')).toHaveLength(3));
    fireEvent.keyDown(window, { key: 'j' });
    fireEvent.keyDown(document.body, { key: 'Enter' });
    expect(log.at(-1)).toMatchObject({ name: 'experiment-page', query: { item: '2' } });
    // Enter on a control is the control's own (a link, a button): it opens no row.
    const before = log.length;
    fireEvent.keyDown(screen.getByTestId('breadcrumb-experiment'), { key: 'Enter' });
    expect(log).toHaveLength(before);
  });

  it('steps with j/k, opens with o, shows both verdicts and texts, and goes back with Esc', async () => {
    const { log } = setup();
    await waitFor(() => expect(screen.getAllByTestId('flip-row')).toHaveLength(3));
    fireEvent.keyDown(window, { key: 'j' });
    fireEvent.keyDown(window, { key: 'k' });
    fireEvent.keyDown(window, { key: 'o' });
    expect(log.at(-1)).toEqual({
      name: 'experiment-page',
      page: 'flips',
      experimentId: 7,
      query: { item: '1', order: 'orig', rowJudge: 'J1', rowComparison: 'EN-ZH' },
    });
    const detail = await screen.findByTestId('flip-detail');
    expect(within(detail).getByTestId('verdict-en-winner').textContent).toContain('A = Output 1');
    expect(within(detail).getByTestId('verdict-target-winner').textContent).toContain('B = Output 2');
    expect(within(detail).getAllByText('A = Output 1, B = Output 2')).toHaveLength(2);
    await waitFor(() => expect(screen.getByTestId('text-en-instruction').textContent).toBe('Instruction 1'));
    await waitFor(() => expect(screen.getByTestId('text-target-instruction').textContent).toBe('指令 1'));
    expect(screen.getByTestId('text-target-output2').textContent).toBe('第二 1');
    // A reason with markup is shown as the characters it is.
    expect(screen.getByTestId('verdict-target-reason').textContent).toBe(
      '<img src=x onerror=alert(1)> B 更简洁。',
    );
    expect(detail.querySelector('img')).toBeNull();
    // The other verdicts of the item: EN swap is 1 (right), the tie probe a tie.
    const grid = screen.getByTestId('verdict-grid');
    expect(grid.querySelectorAll('.verdict-cell--current')).toHaveLength(2);
    expect(grid.textContent).toContain('tie');

    fireEvent.keyDown(window, { key: 'j' });
    await waitFor(() =>
      expect(log.at(-1)).toEqual({
        name: 'experiment-page',
        page: 'flips',
        experimentId: 7,
        query: { item: '2', order: 'orig', rowJudge: 'J1', rowComparison: 'EN-LS' },
      }),
    );
    await waitFor(() => expect(screen.getByTestId('text-en-instruction').textContent).toBe('Instruction 2'));
    expect(screen.getByTestId('flip-detail').textContent).toContain('LS.output_1: empty');

    fireEvent.keyDown(window, { key: 'Escape' });
    await waitFor(() => expect(screen.getAllByTestId('flip-row')).toHaveLength(3));
    expect(log.at(-1)).toEqual({ name: 'experiment-page', page: 'flips', experimentId: 7, query: {} });
    // Back on the row that was open.
    expect(screen.getAllByTestId('flip-row')[1].getAttribute('aria-selected')).toBe('true');
  });

  it('says so when there are no judgments', async () => {
    const api = new FakeApi({
      'experiments.protocolView': protocolViews({ judgments: () => [] }),
      'experiments.flagged': () => ({ flagged: [] }),
      'experiments.get': () => ({ id: 7, datasetId: 1 }),
    });
    setApi(api);
    await act(async () => {
      render(<FlipBrowserPage experimentId={7} query={{}} onNavigate={() => {}} />);
    });
    expect((await screen.findByTestId('flips-empty')).textContent).toBe('No judgments yet.');
  });
});
