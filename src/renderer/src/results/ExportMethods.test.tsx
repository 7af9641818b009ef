// @vitest-environment jsdom
// The exports the core writes on request, on the ExportAction kit: Methods shows its text as text
// with a download per file and can be dismissed; a failed study bundle says why and can be retried.
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors';
import { setApi } from '../api';
import '../i18n';
import { FakeApi } from '../test/fake-api';
import { unmountAndDropApiAfterEach } from '../test/dom';
import { ExportBundle } from './ExportBundle';
import { ExportMethods } from './ExportMethods';

unmountAndDropApiAfterEach();

describe('Export → Methods and Export → Study bundle', () => {
  it('writes the Methods, shows the markdown as text with its downloads, and dismisses it', async () => {
    const api = new FakeApi({
      'experiments.methods': () => ({
        markdown: '# Methods <b>judge</b>',
        latex: '\\section{}',
        checklist: '- [x]',
      }),
    });
    setApi(api);
    render(<ExportMethods experimentId={3} />);
    fireEvent.click(screen.getByTestId('export-methods'));
    expect(screen.getByTestId('export-methods').textContent).toBe('Writing the Methods…');
    const text = await screen.findByTestId('export-methods-text');
    expect(text.textContent).toBe('# Methods <b>judge</b>');
    expect(text.querySelector('b')).toBeNull();
    expect(api.calls).toEqual([{ method: 'experiments.methods', params: { experimentId: 3, lang: 'en' } }]);
    for (const key of ['markdown', 'latex', 'checklist']) screen.getByTestId(`export-methods-${key}`);
    fireEvent.click(screen.getByText('Dismiss'));
    expect(screen.queryByTestId('export-methods-result')).toBeNull();
    expect(screen.getByTestId('export-methods').textContent).toBe('Export → Methods');
  });

  it('says why a study bundle failed, and the button works again', async () => {
    setApi(
      new FakeApi({
        'experiments.exportBundle': () => Promise.reject(new ApiError('internal', 'disk full')),
      }),
    );
    render(<ExportBundle experimentId={3} />);
    fireEvent.click(screen.getByTestId('export-bundle'));
    expect((await screen.findByRole('alert')).textContent).toContain('disk full');
    expect(screen.queryByTestId('export-bundle-result')).toBeNull();
    expect((screen.getByTestId('export-bundle') as HTMLButtonElement).disabled).toBe(false);
  });
});
