import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError, setApi } from '../api';
import '../i18n';
import { FakeApi } from '../test/fake-api';
import { RenameDataset } from './RenameDataset';
import { unmountAndDropApiAfterEach } from '../test/dom';

unmountAndDropApiAfterEach();

describe('rename a dataset', () => {
  it('saves the new name through the core, and shows its refusal next to the field', async () => {
    let refuse = true;
    const api = new FakeApi({
      'datasets.rename': (p) => {
        if (refuse)
          throw new ApiError('conflict', 'name: another dataset is called "LLMBar"; pick another name.');
        return { id: 3, name: (p as { name: string }).name };
      },
    });
    setApi(api);
    render(<RenameDataset datasetId={3} name="upload.csv" />);
    fireEvent.click(screen.getByTestId('rename-dataset'));
    const input = screen.getByTestId('rename-input') as HTMLInputElement;
    expect(input.value).toBe('upload.csv');
    fireEvent.change(input, { target: { value: 'LLMBar' } });
    fireEvent.click(screen.getByTestId('rename-save'));
    expect((await screen.findByTestId('rename-error')).textContent).toContain('another dataset is called');
    refuse = false;
    fireEvent.change(input, { target: { value: 'Pilot' } });
    fireEvent.click(screen.getByTestId('rename-save'));
    await waitFor(() => expect(screen.queryByTestId('rename-input')).toBeNull());
    expect(api.calls.at(-1)).toEqual({ method: 'datasets.rename', params: { datasetId: 3, name: 'Pilot' } });
  });
});
