// The verdict browser's generic mechanism (issue 26 item 4), for a protocol the renderer has no
// plug-in for: the declared cells link to their filter, the browser lists exactly the verdicts
// the filter selects, the filters narrow and widen, a row opens with its item, and model text
// stays text.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ExperimentResults } from '../../../shared/experiments';
import { col, type Table } from '../../../shared/report/table';
import type { VerdictLink, VerdictRow } from '../../../shared/verdicts';
import { setApi } from '../api';
import { i18next } from '../i18n';
import { ResultsPage } from '../results/ResultsPage';
import { FakeApi, ITEMS } from '../test/fake-api';
import { parseHash } from '../stores/route';
import { VerdictBrowserPage } from './VerdictBrowserPage';
import { unmountAndDropApiAfterEach } from '../test/dom';

unmountAndDropApiAfterEach({ backToEnglish: true });

const TABLE: Table = {
  id: 'answers',
  title: 'Answers',
  caption: 'Per judge and language; "all" pools the languages.',
  columns: [
    col('judge', 'Judge', 'text'),
    col('language', 'Language', 'text'),
    col('n', 'n', 'int'),
    col('rate', 'Rate', 'pct'),
    col('note', 'Note', 'text'),
  ],
  rows: [
    { judge: 'J1', language: 'EN', n: 2, rate: 0.5, note: 'x' },
    { judge: 'J1', language: 'all', n: 3, rate: 1 / 3, note: '' },
    { judge: 'J2', language: 'EN', n: 0, rate: null, note: '' },
  ],
};

const LINKS: VerdictLink[] = [
  {
    table: 'answers',
    by: { judge: 'judge', language: 'lang' },
    where: { kind: 'main' },
    pooled: { language: 'all' },
    columns: ['n', 'rate'],
    count: 'n',
  },
];

const row = (over: Partial<VerdictRow> & { fields: Record<string, string> }): VerdictRow => ({
  itemId: 1,
  sourceId: 'item-1',
  verdict: 'A',
  correct: true,
  shown: null,
  reason: 'fine',
  ...over,
});

const VERDICTS: VerdictRow[] = [
  row({ fields: { judge: 'J1', lang: 'EN', kind: 'main' }, reason: '<b>bold</b> & <script>x</script>' }),
  row({ fields: { judge: 'J1', lang: 'EN', kind: 'main' }, itemId: 2, sourceId: 'item-2', correct: false }),
  row({ fields: { judge: 'J1', lang: 'ZH', kind: 'main' }, itemId: 3, sourceId: 'item-3', verdict: 'tie' }),
  row({ fields: { judge: 'J1', lang: 'EN', kind: 'probe' }, correct: null }),
  row({ fields: { judge: 'J2', lang: 'ZH', kind: 'main' }, shown: 'the <i>answer</i> shown' }),
  // A pair of verdicts and a question's repeats: verdicts of several words.
  row({ fields: { judge: 'J3', lang: 'EN', kind: 'pair' }, verdict: 'tie → A', correct: null }),
  row({ fields: { judge: 'J3', lang: 'EN', kind: 'repeats' }, verdict: 'A tie A', correct: null }),
];

const results = (): ExperimentResults => ({
  protocol: 'unplugged',
  metrics: {},
  tables: [TABLE],
  flagged: [],
  counts: { planned: 5, ok: 5, failed: 0, pending: 0 },
  simulated: false,
});

function api(links: VerdictLink[] = LINKS) {
  const fake = new FakeApi({
    'experiments.results': results,
    'experiments.get': () => ({ id: 7, name: 'Pilot', datasetName: 'LLMBar', datasetId: 1 }),
    'experiments.verdictLinks': () => ({ links }),
    'experiments.verdicts': () => ({ fields: ['judge', 'lang', 'kind'], rows: VERDICTS }),
    'items.get': ({ itemId }) => ITEMS.find((i) => i.id === itemId),
  });
  setApi(fake);
  return fake;
}

/** The browser's query as the cell's link carries it. */
const queryOf = (href: string) => {
  const route = parseHash(href);
  if (route.name !== 'experiment-page') throw new Error(`not a page route: ${href}`);
  expect(route.page).toBe('verdicts');
  return route.query;
};

describe('cells that open their verdicts', () => {
  it('links the declared columns of each row to the row’s filter (pooled values filter nothing)', async () => {
    api();
    render(<ResultsPage experimentId={7} excludeFlagged={false} onNavigate={vi.fn()} />);
    const table = await screen.findByTestId('table-answers');
    await waitFor(() => expect(within(table).getAllByTestId('cell-verdicts')).toHaveLength(5));
    const [first, pooled, empty] = within(table).getAllByTestId('results-row');
    // Text columns (judge, language, note) stay plain; n and rate open the verdicts.
    const links = (tr: HTMLElement) =>
      within(tr)
        .queryAllByTestId('cell-verdicts')
        .map((a) => a.closest('td')!.getAttribute('data-column'));
    expect(links(first)).toEqual(['n', 'rate']);
    expect(links(pooled)).toEqual(['n', 'rate']);
    // An undefined rate has nothing to open; its n (0) does.
    expect(links(empty)).toEqual(['n']);

    const q = queryOf(within(first).getAllByTestId('cell-verdicts')[0].getAttribute('href')!);
    expect(q).toEqual({
      table: 'answers',
      'f.kind': 'main',
      'f.judge': 'J1',
      'f.lang': 'EN',
    });
    const qp = queryOf(within(pooled).getAllByTestId('cell-verdicts')[1].getAttribute('href')!);
    expect(qp).toEqual({ table: 'answers', 'f.kind': 'main', 'f.judge': 'J1' });
  });

  it('a table with two links opens each column by its own link', async () => {
    // `note` stands on other verdicts (kind `probe`) than n and rate.
    api([
      ...LINKS,
      { table: 'answers', by: { judge: 'judge' }, where: { kind: 'probe' }, columns: ['note'], count: 'n' },
    ]);
    render(<ResultsPage experimentId={7} excludeFlagged={false} onNavigate={vi.fn()} />);
    const table = await screen.findByTestId('table-answers');
    await waitFor(() => expect(within(table).getAllByTestId('cell-verdicts')).toHaveLength(8));
    const [first] = within(table).getAllByTestId('results-row');
    const hrefs = within(first)
      .getAllByTestId('cell-verdicts')
      .map((a) => [a.closest('td')!.getAttribute('data-column'), queryOf(a.getAttribute('href')!)]);
    expect(hrefs).toEqual([
      ['n', { table: 'answers', 'f.kind': 'main', 'f.judge': 'J1', 'f.lang': 'EN' }],
      ['rate', { table: 'answers', 'f.kind': 'main', 'f.judge': 'J1', 'f.lang': 'EN' }],
      ['note', { table: 'answers', 'f.kind': 'probe', 'f.judge': 'J1' }],
    ]);
  });

  it('leaves every cell plain when the protocol declares no links', async () => {
    // The same links for another table: this one's cells stay plain.
    const fake = api([{ ...LINKS[0], table: 'other' }]);
    render(<ResultsPage experimentId={7} excludeFlagged={false} onNavigate={vi.fn()} />);
    const table = await screen.findByTestId('table-answers');
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'experiments.verdictLinks')).toBe(true));
    expect(within(table).queryAllByTestId('cell-verdicts')).toHaveLength(0);
  });

  it('carries the sensitivity switch to the browser, which asks for the same verdicts', async () => {
    const fake = api();
    render(<ResultsPage experimentId={7} excludeFlagged={true} onNavigate={vi.fn()} />);
    const table = await screen.findByTestId('table-answers');
    await waitFor(() => expect(within(table).getAllByTestId('cell-verdicts').length).toBeGreaterThan(0));
    const q = queryOf(within(table).getAllByTestId('cell-verdicts')[0].getAttribute('href')!);
    expect(q.excludeFlagged).toBe('1');
    cleanup();
    render(<VerdictBrowserPage experimentId={7} query={q} onQuery={vi.fn()} />);
    await screen.findByTestId('verdict-list');
    expect(fake.calls.find((c) => c.method === 'experiments.verdicts')?.params).toEqual({
      experimentId: 7,
      excludeFlagged: true,
    });
  });
});

describe('the verdict browser', () => {
  const cellQuery = { table: 'answers', 'f.kind': 'main', 'f.judge': 'J1', 'f.lang': 'EN' };

  it('lists exactly the cell’s verdicts, model text as text', async () => {
    api();
    render(<VerdictBrowserPage experimentId={7} query={cellQuery} onQuery={vi.fn()} />);
    const list = await screen.findByTestId('verdict-list');
    expect(within(list).getAllByTestId('verdict-row')).toHaveLength(2);
    expect(screen.getByTestId('verdict-count').getAttribute('data-count')).toBe('2');
    expect(screen.getByTestId('verdict-count').textContent).toBe('2 verdicts');
    // The reason's markup is characters on screen, never elements.
    expect(list.querySelector('b, script')).toBeNull();
    expect(list.textContent).toContain('<b>bold</b> & <script>x</script>');
    expect((screen.getByTestId('verdict-filter-lang') as HTMLSelectElement).value).toBe('EN');
  });

  it('narrows and widens through the filters (the address keeps them)', async () => {
    api();
    const onQuery = vi.fn();
    render(<VerdictBrowserPage experimentId={7} query={cellQuery} onQuery={onQuery} />);
    const select = (await screen.findByTestId('verdict-filter-lang')) as HTMLSelectElement;
    // Every value of the whole list is offered, so a filter can be widened again.
    expect([...select.options].map((o) => o.value)).toEqual(['', 'EN', 'ZH']);
    fireEvent.change(select, { target: { value: '' } });
    expect(onQuery).toHaveBeenLastCalledWith({
      table: 'answers',
      'f.kind': 'main',
      'f.judge': 'J1',
    });
    cleanup();
    render(<VerdictBrowserPage experimentId={7} query={onQuery.mock.lastCall![0]} onQuery={onQuery} />);
    expect(await screen.findAllByTestId('verdict-row')).toHaveLength(3);
  });

  it('opens a row with Enter: the judge’s reason, the answer shown and the item', async () => {
    api();
    const onQuery = vi.fn();
    const q = { table: 'answers', 'f.judge': 'J2' };
    render(<VerdictBrowserPage experimentId={7} query={q} onQuery={onQuery} />);
    const [only] = await screen.findAllByTestId('verdict-row');
    fireEvent.keyDown(only, { key: 'Enter' });
    expect(onQuery).toHaveBeenLastCalledWith({ ...q, open: '0' });
    cleanup();
    render(<VerdictBrowserPage experimentId={7} query={{ ...q, open: '0' }} onQuery={onQuery} />);
    expect((await screen.findByTestId('verdict-shown')).textContent).toBe('the <i>answer</i> shown');
    expect(screen.getByTestId('verdict-detail').querySelector('i')).toBeNull();
    expect(screen.getByTestId('verdict-reason').textContent).toBe('fine');
    expect((await screen.findByTestId('item-viewer')).textContent).toContain(ITEMS[0].sourceId);
    // The item view's keys, as its hint says: Esc goes back to the list.
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(onQuery).toHaveBeenLastCalledWith(q);
  });

  it('speaks 中文', async () => {
    api();
    await i18next.changeLanguage('zh');
    render(
      <VerdictBrowserPage experimentId={7} query={{ table: 'answers', 'f.lang': 'ZH' }} onQuery={vi.fn()} />,
    );
    expect((await screen.findByTestId('verdict-count')).textContent).toBe('2 条判决');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('判决');
    // The answer word is translated; the rest of the row is data.
    expect(within(screen.getByTestId('verdict-list')).getAllByTestId('verdict-value')[0].textContent).toBe(
      '平局',
    );
  });

  it('translates a verdict of several words (a pair, a question’s repeats) word by word', async () => {
    api();
    await i18next.changeLanguage('zh');
    render(
      <VerdictBrowserPage experimentId={7} query={{ table: 'answers', 'f.judge': 'J3' }} onQuery={vi.fn()} />,
    );
    await screen.findByTestId('verdict-list');
    expect(screen.getAllByTestId('verdict-value').map((v) => v.textContent)).toEqual([
      '平局 → A',
      'A 平局 A',
    ]);
  });
});
