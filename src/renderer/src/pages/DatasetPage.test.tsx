import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { setApi } from '../api';
import { ApiError } from '../api/errors';
import { App } from '../App';
import '../i18n';
import { useDatasets } from '../stores/datasets';
import { useItem } from '../stores/item';
import { subscribeToItemInvalidation, useItems } from '../stores/items';
import type { Item } from '../../../shared/domain';
import { FakeApi, ITEMS, rowsOf, summary } from '../test/fake-api';
import { giveElementsAWindowBox, unmountAndDropApiAfterEach } from '../test/dom';

function makeApi() {
  return new FakeApi({
    'datasets.list': () => [summary()],
    'items.list': (p) => {
      const { subset, search } = p as { subset?: string; search?: string };
      return rowsOf(
        ITEMS.filter(
          (i) => (subset === undefined || i.subset === subset) && (!search || i.instruction.includes(search)),
        ),
      );
    },
    'items.get': (p) => {
      const item = ITEMS.find((i) => i.id === (p as { itemId: number }).itemId);
      if (!item) throw new ApiError('not_found', 'No item');
      return item;
    },
  });
}

async function openAt(hash: string, api = makeApi()) {
  setApi(api);
  window.location.hash = hash;
  await act(async () => {
    await useDatasets.getState().refresh();
  });
  render(<App />);
  return api;
}

/** The first item of a dataset whose kind has no response pair: what it holds is in `extra`. */
function firstItemWithoutPair(item: Omit<Item, 'position' | 'output1' | 'output2' | 'label'>): Item {
  return { ...item, position: 1, output1: null, output2: null, label: null };
}

giveElementsAWindowBox();

beforeEach(() => {
  useDatasets.setState({ datasets: [], loaded: false, error: null });
  useItems.setState({
    datasetId: null,
    rows: [],
    loaded: false,
    loading: false,
    error: null,
    activeIndex: 0,
  });
  useItem.setState({ itemId: null, item: null, error: null });
});
unmountAndDropApiAfterEach();

describe('Dataset view', () => {
  it('lists the items and filters them by subset on the server', async () => {
    const api = await openAt('#/datasets/1');
    await waitFor(() => expect(screen.getByTestId('item-count').textContent).toBe('3 items'));
    expect(screen.getAllByTestId('item-row')).toHaveLength(3);
    const select = screen.getByTestId('subset-filter') as HTMLSelectElement;
    expect(Array.from(select.options).map((o) => o.value)).toEqual(['', 'Natural', 'Adversarial']);
    expect(select.options[1].textContent).toBe('Natural (2)');
    fireEvent.change(select, { target: { value: 'Adversarial' } });
    await waitFor(() => expect(screen.getByTestId('item-count').textContent).toBe('1 item'));
    expect(api.calls.at(-1)).toEqual({
      method: 'items.list',
      params: { datasetId: 1, subset: 'Adversarial' },
    });
  });

  it('searches after typing pauses', async () => {
    const api = await openAt('#/datasets/1');
    await waitFor(() => expect(screen.getAllByTestId('item-row')).toHaveLength(3));
    fireEvent.change(screen.getByTestId('item-search'), { target: { value: 'Instruction 2' } });
    await waitFor(() => expect(screen.getByTestId('item-count').textContent).toBe('1 item'));
    const searches = api.calls.filter(
      (c) => c.method === 'items.list' && (c.params as { search?: string }).search,
    );
    expect(searches).toEqual([{ method: 'items.list', params: { datasetId: 1, search: 'Instruction 2' } }]);
  });

  it('opens a clicked row in the viewer and steps with j and k', async () => {
    await openAt('#/datasets/1');
    await waitFor(() => expect(screen.getAllByTestId('item-row')).toHaveLength(3));
    fireEvent.click(screen.getAllByTestId('item-row')[0]);
    await waitFor(() => expect(screen.getByTestId('item-instruction').textContent).toBe('Instruction 1'));
    expect(window.location.hash).toBe('#/datasets/1/items/1');
    expect(screen.getByTestId('gold-label').textContent).toBe('Gold: Output 1');

    fireEvent.keyDown(window, { key: 'j' });
    await waitFor(() => expect(screen.getByTestId('item-output-2').textContent).toBe('Second 2'));
    expect(window.location.hash).toBe('#/datasets/1/items/2');
    expect(screen.getByTestId('gold-label').textContent).toBe('Gold: Output 2');

    fireEvent.keyDown(window, { key: 'k' });
    await waitFor(() => expect(screen.getByTestId('item-instruction').textContent).toBe('Instruction 1'));
  });

  it('opens a deep link to an item directly', async () => {
    await openAt('#/datasets/1/items/3');
    await waitFor(() => expect(screen.getByTestId('item-viewer')).toBeTruthy());
    expect(screen.getByTestId('item-output-1').textContent).toBe('First 3');
    await waitFor(() => expect(screen.getByText('Item 3 of 3')).toBeTruthy());
  });

  it('loads the items again, keeping the filter, when the dataset changes elsewhere', async () => {
    const api = await openAt('#/datasets/1');
    const off = subscribeToItemInvalidation(); // as main.tsx does at start
    await waitFor(() => expect(screen.getAllByTestId('item-row')).toHaveLength(3));
    fireEvent.change(screen.getByTestId('subset-filter'), { target: { value: 'Natural' } });
    await waitFor(() => expect(screen.getByTestId('item-count').textContent).toBe('2 items'));
    const before = api.calls.length;
    act(() => api.emit('datasets.changed', { datasetId: 1 }));
    await waitFor(() => expect(screen.getByTestId('item-count').textContent).toBe('2 items'));
    expect(api.calls.slice(before)).toEqual([
      { method: 'items.list', params: { datasetId: 1, subset: 'Natural' } },
    ]);
    off();
  });

  it('says when a linked item does not exist', async () => {
    await openAt('#/datasets/1/items/99');
    await waitFor(() => expect(screen.getByText(/This item does not exist/)).toBeTruthy());
  });

  it('shows a QA dataset with the columns and viewer its kind declares (issue 26 item 1)', async () => {
    const qa = firstItemWithoutPair({
      id: 11,
      datasetId: 2,
      sourceId: 'arabic-1',
      subset: null,
      instruction: 'ما هي عاصمة مصر؟',
      extra: { answers: ['القاهرة', 'Cairo'], language: 'ar', context: 'Egypt <b>context</b>' },
    });
    const api = new FakeApi({
      'datasets.list': () => [summary({ id: 2, name: 'TyDi', kind: 'qa', subsets: [] })],
      'items.list': () => [{ ...rowsOf([qa])[0], fields: { language: 'ar', answers: 'القاهرة | Cairo' } }],
      'items.get': () => qa,
    });
    await openAt('#/datasets/2', api);
    const row = (await screen.findAllByTestId('item-row'))[0];
    const headers = [...document.querySelectorAll('[role="columnheader"]')].map((h) => h.textContent);
    // No item has a category: the column is left out rather than shown empty.
    expect(headers).toEqual(['ID', 'Language', 'Question', 'Gold answers']);
    expect([...row.querySelectorAll('[role="cell"]')].map((c) => c.textContent)).toEqual([
      'arabic-1',
      'ar',
      'ما هي عاصمة مصر؟',
      'القاهرة | Cairo',
    ]);
    fireEvent.click(row);
    await waitFor(() => expect(screen.getByTestId('item-question').textContent).toBe('ما هي عاصمة مصر؟'));
    expect(screen.getAllByTestId('item-answer').map((a) => a.textContent)).toEqual(['القاهرة', 'Cairo']);
    expect(screen.getByTestId('item-language').textContent).toContain('ar');
    // Data is text: the context's markup shows as characters.
    expect(screen.getByTestId('item-context').textContent).toBe('Egypt <b>context</b>');
    expect(screen.getByTestId('item-viewer').querySelector('b')).toBeNull();
    expect(screen.queryByTestId('item-extra-json')).toBeNull();
  });

  it('shows a pointwise dataset with its response and human score', async () => {
    const pw = firstItemWithoutPair({
      id: 21,
      datasetId: 3,
      sourceId: 'p1',
      subset: 'chat',
      instruction: 'Say hi',
      extra: { response: 'Hello there.', human_score: 4, reference: 'Hi!' },
    });
    const api = new FakeApi({
      'datasets.list': () => [summary({ id: 3, name: 'Scores', kind: 'pointwise' })],
      'items.list': () => [{ ...rowsOf([pw])[0], fields: { response: 'Hello there.', human_score: '4' } }],
      'items.get': () => pw,
    });
    await openAt('#/datasets/3', api);
    const row = (await screen.findAllByTestId('item-row'))[0];
    const headers = [...document.querySelectorAll('[role="columnheader"]')].map((h) => h.textContent);
    expect(headers).toEqual(['ID', 'Category', 'Instruction', 'Response', 'Human score']);
    expect(row.textContent).toContain('Hello there.');
    fireEvent.click(row);
    await waitFor(() => expect(screen.getByTestId('item-response').textContent).toBe('Hello there.'));
    expect(screen.getByTestId('item-reference').textContent).toBe('Hi!');
    expect(screen.getByTestId('item-human-score').textContent).toContain('4');
  });
});
