// Issue 15 item 12 in the renderer: an import refused for its column names opens "Choose
// columns"; the person maps them, sees the rows as mapped, and imports the same bytes again.
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ColumnChoice, DatasetSummary } from '../../../shared/domain';
import { setApi } from '../api';
import { i18next } from '../i18n';
import { startAppAt, resetDatasetStores } from '../test/app';
import { FakeApi, summary } from '../test/fake-api';

const CHOICE: ColumnChoice = {
  columns: ['prompt', 'response_a', 'response_b', 'winner'],
  kind: 'pairwise',
  kinds: [
    {
      kind: 'pairwise',
      fields: [
        { field: 'instruction', required: true },
        { field: 'output_1', required: true },
        { field: 'output_2', required: true },
        { field: 'label', required: true },
        { field: 'id', required: false },
        { field: 'subset', required: false },
      ],
    },
    {
      kind: 'qa',
      fields: [
        { field: 'id', required: true },
        { field: 'question', required: true },
        { field: 'answers', required: true },
        { field: 'language', required: true },
      ],
    },
  ],
  sample: [
    { prompt: 'Say <b>hi</b>', response_a: 'hi', response_b: 'bye', winner: '1' },
    { prompt: 'Add 2+2', response_a: '4', response_b: '5', winner: '1' },
  ],
};

/** What the preload throws: a plain object with the error payload (contextBridge drops classes). */
function refused(choice: ColumnChoice) {
  return {
    name: 'ApiError',
    code: 'invalid_input',
    message: 'pairs.csv: header is missing required columns',
    issues: [{ file: 'pairs.csv', line: 1, message: 'header is missing required columns "instruction"' }],
    columnChoice: choice,
  };
}

function pick(name: string) {
  const file = new File(['prompt,response_a,response_b,winner\nSay hi,hi,bye,1\n'], name, {
    type: 'text/csv',
  });
  fireEvent.change(screen.getByTestId('import-input'), { target: { files: [file] } });
}

const choose = (field: string, column: string) =>
  fireEvent.change(screen.getByTestId(`column-for-${field}`), { target: { value: column } });

beforeEach(resetDatasetStores);
afterEach(async () => {
  cleanup();
  setApi(null);
  await i18next.changeLanguage('en');
});

describe('Choose columns after an import refused for its column names', () => {
  it('maps each needed field to a column, previews the rows as text, and imports the same bytes with that mapping', async () => {
    let datasets: DatasetSummary[] = [];
    const api = new FakeApi({
      'app.info': () => ({ version: '0', dataDir: '/d', door: 'web', samples: [] }),
      'datasets.list': () => datasets,
      'datasets.import': (p) => {
        if (!p.columns) throw refused(CHOICE);
        datasets = [summary({ id: 2, name: 'pairs', sourceFile: 'pairs.csv', itemCount: 2 })];
        return { dataset: datasets[0], duplicate: false, mapping: p.columns, mappingRemembered: false };
      },
    });
    await startAppAt(api);
    pick('pairs.csv');
    const chooser = await screen.findByTestId('column-chooser');
    expect(within(chooser).getByRole('heading').textContent).toBe('Choose columns for pairs.csv');
    // Nothing chosen yet: Import waits, and says what is still to choose.
    const importButton = screen.getByTestId('column-import') as HTMLButtonElement;
    expect(importButton.disabled).toBe(true);
    expect(screen.getByTestId('column-problems').textContent).toContain(
      'instruction, output_1, output_2, label',
    );
    // Each select offers "none" and the file's columns.
    const options = [...(screen.getByTestId('column-for-label') as HTMLSelectElement).options].map(
      (o) => o.value,
    );
    expect(options).toEqual(['', 'prompt', 'response_a', 'response_b', 'winner']);

    choose('instruction', 'prompt');
    choose('output_1', 'response_a');
    choose('output_2', 'response_a');
    expect(screen.getByTestId('column-problems').textContent).toContain(
      'Column “response_a” is chosen for more than one field: output_1, output_2',
    );
    choose('output_2', 'response_b');
    choose('label', 'winner');
    expect(importButton.disabled).toBe(false);
    expect(screen.getByTestId('column-problems').textContent).toBe('');

    // The preview shows the sample under the app's field names, as text (no HTML).
    const preview = screen.getByTestId('column-preview');
    expect([...preview.querySelectorAll('th')].map((th) => th.textContent)).toEqual([
      'instruction',
      'output_1',
      'output_2',
      'label',
    ]);
    const firstRow = [...preview.querySelectorAll('tbody tr')][0];
    expect([...firstRow.querySelectorAll('td')].map((td) => td.textContent)).toEqual([
      'Say <b>hi</b>',
      'hi',
      'bye',
      '1',
    ]);
    expect(preview.querySelector('b')).toBeNull();

    fireEvent.click(importButton);
    const notice = await screen.findByTestId('import-notice');
    expect(notice.textContent).toContain('Imported 2 items from pairs.csv');
    expect(screen.getByTestId('import-mapping-note').textContent).toContain('same columns');
    const calls = api.calls.filter((c) => c.method === 'datasets.import');
    expect(calls).toHaveLength(2);
    const [first, second] = calls.map((c) => c.params as { contentBase64: string; columns?: object });
    expect(second.contentBase64).toBe(first.contentBase64);
    expect(second.columns).toEqual({
      instruction: 'prompt',
      output_1: 'response_a',
      output_2: 'response_b',
      label: 'winner',
    });
    expect(screen.queryByTestId('column-chooser')).toBeNull();
  });

  it('starts from the mapping tried, lets the kind change, and speaks 中文', async () => {
    const api = new FakeApi({
      'app.info': () => ({ version: '0', dataDir: '/d', door: 'web', samples: [] }),
      'datasets.list': () => [],
      'datasets.import': () => {
        throw refused({ ...CHOICE, mapping: { instruction: 'prompt', label: 'winner' } });
      },
    });
    await startAppAt(api);
    await act(async () => {
      await i18next.changeLanguage('zh');
    });
    pick('pairs.csv');
    const chooser = await screen.findByTestId('column-chooser');
    expect(within(chooser).getByRole('heading').textContent).toBe('为 pairs.csv 选择列');
    expect((screen.getByTestId('column-for-instruction') as HTMLSelectElement).value).toBe('prompt');
    expect((screen.getByTestId('column-for-label') as HTMLSelectElement).value).toBe('winner');
    expect((screen.getByTestId('column-for-output_1') as HTMLSelectElement).value).toBe('');
    expect(screen.getByTestId('column-problems').textContent).toBe('尚未选择：output_1, output_2');
    // The problems of the mapping tried are shown open: they are what to fix next.
    expect(chooser.querySelector('details')!.open).toBe(true);
    fireEvent.change(screen.getByTestId('column-kind'), { target: { value: 'qa' } });
    expect(screen.getByTestId('column-for-question')).toBeTruthy();
    expect(screen.queryByTestId('column-for-output_1')).toBeNull();
    // Cancel leaves the page as it was.
    fireEvent.click(within(chooser).getByRole('button', { name: '取消' }));
    expect(screen.queryByTestId('column-chooser')).toBeNull();
  });

  it('says when an import used the mapping remembered for files with the same columns', async () => {
    const mapping = {
      instruction: 'prompt',
      output_1: 'response_a',
      output_2: 'response_b',
      label: 'winner',
    };
    const api = new FakeApi({
      'app.info': () => ({ version: '0', dataDir: '/d', door: 'web', samples: [] }),
      'datasets.list': () => [],
      'datasets.import': () => ({
        dataset: summary({ id: 3, name: 'more', itemCount: 1 }),
        duplicate: false,
        mapping,
        mappingRemembered: true,
      }),
    });
    await startAppAt(api);
    pick('more.csv');
    const note = await screen.findByTestId('import-mapping-note');
    expect(note.textContent).toContain(
      'remembered for files with these columns: prompt → instruction, response_a → output_1, response_b → output_2, winner → label',
    );
  });
});
