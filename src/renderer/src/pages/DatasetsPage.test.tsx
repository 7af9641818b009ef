import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DatasetSummary } from '../../../shared/domain';
import { ApiError } from '../api/errors';
import '../i18n';
import { subscribeToDatasetChanges } from '../stores/datasets';
import { startAppAt, resetDatasetStores } from '../test/app';
import { FakeApi, imported, summary } from '../test/fake-api';
import { unmountAndDropApiAfterEach } from '../test/dom';

beforeEach(resetDatasetStores);
unmountAndDropApiAfterEach();

describe('Datasets page', () => {
  it('offers the sample on first start and lists it after loading', async () => {
    let datasets: DatasetSummary[] = [];
    const api = new FakeApi({
      'app.info': () => ({
        version: '0',
        dataDir: '/d',
        door: 'web',
        samples: [{ id: 'llmbar', name: 'LLMBar', itemCount: 419 }],
      }),
      'datasets.list': () => datasets,
      'datasets.loadSample': () => {
        datasets = [summary({ itemCount: 419 })];
        return imported(datasets[0]);
      },
    });
    await startAppAt(api);
    const button = screen.getByTestId('load-sample');
    expect(button.textContent).toContain('Load the LLMBar sample');
    fireEvent.click(button);
    const row = await screen.findByTestId('dataset-row');
    expect(row.querySelector('[data-testid="dataset-item-count"]')!.textContent).toContain('419');
    expect(row.textContent).toContain('Natural');
    expect(api.calls.find((c) => c.method === 'datasets.loadSample')!.params).toEqual({ sampleId: 'llmbar' });
    expect(screen.getByRole('status').textContent).toContain('Imported 419 items');
  });

  it('sends a picked file as base64 and shows every issue of a rejected import', async () => {
    const issues = [
      { file: 'bad.csv', line: 2, field: 'label', message: 'must be 1 or 2' },
      { file: 'bad.csv', line: 4, field: 'instruction', message: 'is empty' },
    ];
    const api = new FakeApi({
      'app.info': () => ({ version: '0', dataDir: '/d', door: 'web', samples: [] }),
      'datasets.list': () => [],
      'datasets.import': () => {
        throw new ApiError('invalid_input', 'bad.csv: 2 problems', issues);
      },
    });
    await startAppAt(api);
    const file = new File(['instruction,output_1,output_2,label\n'], 'bad.csv', { type: 'text/csv' });
    fireEvent.change(screen.getByTestId('import-input'), { target: { files: [file] } });
    const panel = await screen.findByTestId('import-error');
    expect(panel.textContent).toContain('bad.csv:2');
    expect(panel.textContent).toContain('must be 1 or 2');
    expect(panel.textContent).toContain('bad.csv:4');
    expect(panel.textContent).toContain('instruction');
    const sent = api.calls.find((c) => c.method === 'datasets.import')!.params as {
      fileName: string;
      contentBase64: string;
    };
    expect(sent.fileName).toBe('bad.csv');
    expect(atob(sent.contentBase64)).toBe('instruction,output_1,output_2,label\n');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('import-error')).toBeNull();
  });

  it('says so when the same file was imported before', async () => {
    const ds = summary({ name: 'mine' });
    const api = new FakeApi({
      'app.info': () => ({ version: '0', dataDir: '/d', door: 'web', samples: [] }),
      'datasets.list': () => [ds],
      'datasets.import': () => imported(ds, true),
    });
    await startAppAt(api);
    const file = new File(['{}'], 'mine.jsonl');
    fireEvent.change(screen.getByTestId('import-input'), { target: { files: [file] } });
    await waitFor(() =>
      expect(screen.getByTestId('import-notice').textContent).toBe('Already imported: mine'),
    );
  });

  it('deletes a dataset only after confirmation, and refreshes on datasets.changed', async () => {
    let datasets = [summary()];
    const api = new FakeApi({
      'app.info': () => ({ version: '0', dataDir: '/d', door: 'web', samples: [] }),
      'datasets.list': () => datasets,
      'datasets.delete': () => {
        datasets = [];
        return { deleted: true };
      },
    });
    await startAppAt(api);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(api.calls.some((c) => c.method === 'datasets.delete')).toBe(false);
    expect(screen.getByTestId('dataset-row').textContent).toContain(
      'Delete “LLMBar (sample)” and its 3 items?',
    );
    fireEvent.click(screen.getAllByRole('button', { name: 'Delete' })[0]);
    await waitFor(() => expect(screen.queryByTestId('dataset-row')).toBeNull());

    datasets = [summary({ id: 9, name: 'from the CLI' })];
    const off = subscribeToDatasetChanges(); // as main.tsx does at start
    act(() => api.emit('datasets.changed', { datasetId: 9 }));
    await waitFor(() => expect(screen.getByTestId('dataset-row').textContent).toContain('from the CLI'));
    off();
  });

  it('names each dataset’s kind and its file format without calling a QA file "LLMBar" (issue 26 item 1)', async () => {
    const api = new FakeApi({
      'app.info': () => ({ version: '0', dataDir: '/d', door: 'web', samples: [] }),
      'datasets.list': () => [
        summary({ id: 1 }),
        summary({ id: 2, name: 'TyDi', sourceFile: 'tydi.jsonl', kind: 'qa', subsets: [] }),
        summary({ id: 3, name: 'Scores', sourceFile: 's.csv', format: 'csv', kind: 'pointwise' }),
      ],
    });
    await startAppAt(api);
    const rows = await screen.findAllByTestId('dataset-row');
    const kinds = rows.map((r) => r.querySelector('[data-testid="dataset-kind"]')!.textContent);
    expect(kinds).toEqual(['Pairwise', 'QA', 'Pointwise']);
    const formats = rows.map((r) => r.querySelector('[data-testid="dataset-format"]')!.textContent);
    expect(formats).toEqual(['LLMBar JSONL', 'JSONL', 'CSV']);
    // The page's intro is about every kind, not only pairwise comparisons.
    expect(document.querySelector('.page__intro')!.textContent).not.toMatch(/list of pairwise comparisons/);
    expect(document.querySelector('.page__intro')!.textContent).toMatch(/QA/);
  });
});
