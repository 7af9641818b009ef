import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setApi } from '../../../api';
import '../../../i18n';
import { FakeApi, ITEMS, estimateOf, protocolViews } from '../../../test/fake-api';
import { variant } from '../test-fixtures';
import { VariantsPage } from './VariantsPage';
import { giveElementsAWindowBox, unmountAndDropApiAfterEach } from '../../../test/dom';

giveElementsAWindowBox();
unmountAndDropApiAfterEach();

const VARIANTS = [
  variant({ itemId: 1, language: 'ZH', reasons: ['ZH.output_1: numbers_missing (EN 4, ZH 0)'] }),
  variant({ itemId: 1, language: 'LS', instruction: 'LS 指令', reasons: [] }),
  variant({ itemId: 2, sourceId: 'X-002', language: 'ZH' }),
];

describe('Variants review', () => {
  it('shows EN, ZH and LS side by side and highlights the field the audit flagged', async () => {
    const api = new FakeApi({
      'experiments.protocolView': protocolViews({
        variants: ({ flaggedOnly }) => (flaggedOnly ? VARIANTS.filter((v) => v.itemId === 1) : VARIANTS),
      }),
      'items.get': ({ itemId }: { itemId: number }) => ITEMS.find((i) => i.id === itemId),
    });
    setApi(api);
    render(<VariantsPage experimentId={7} />);
    await waitFor(() => expect(screen.getAllByTestId('variant-item-row')).toHaveLength(2));

    const cells = await screen.findAllByTestId('variant-field');
    const cell = (lang: string, field: string) =>
      cells.find((c) => c.dataset.language === lang && c.dataset.field === field)!;
    await waitFor(() => expect(cell('EN', 'output_1').textContent).toBe('First 1'));
    expect(cell('ZH', 'output_1').dataset.flagged).toBe('true');
    expect(cell('ZH', 'output_1').textContent).toContain('numbers_missing (EN 4, ZH 0)');
    expect(cell('ZH', 'output_2').dataset.flagged).toBe('false');
    expect(cell('LS', 'output_1').dataset.flagged).toBe('false');
    expect(cell('LS', 'instruction').textContent).toBe('LS 指令');

    fireEvent.click(screen.getByTestId('variants-flagged-only'));
    await waitFor(() => expect(screen.getAllByTestId('variant-item-row')).toHaveLength(1));
    expect(api.calls.at(-1)).toEqual({
      method: 'experiments.protocolView',
      params: { experimentId: 7, view: 'variants', query: { flaggedOnly: true } },
    });
  });

  it('shows other target languages (issue 37) after ZH and LS, Arabic right to left', async () => {
    const more = [
      variant({ itemId: 1, language: 'LS:ar', output1: 'مرحبا world' }),
      variant({ itemId: 1, language: 'ar', output1: 'مرحبا بالعالم', reasons: ['ar.output_2: empty'] }),
      variant({ itemId: 1, language: 'hi', output1: 'नमस्ते' }),
      ...VARIANTS,
    ];
    setApi(
      new FakeApi({
        'experiments.protocolView': protocolViews({ variants: () => more }),
        'items.get': ({ itemId }: { itemId: number }) => ITEMS.find((i) => i.id === itemId),
      }),
    );
    render(<VariantsPage experimentId={7} />);
    await waitFor(() => expect(screen.getAllByTestId('variant-item-row')).toHaveLength(2));
    const cells = await screen.findAllByTestId('variant-field');
    // Columns: EN, then ZH and LS, then the others in the order the variants came.
    const order = [...new Set(cells.map((c) => c.dataset.language))];
    expect(order).toEqual(['EN', 'ZH', 'LS', 'LS:ar', 'ar', 'hi']);
    const text = (lang: string, field: string) =>
      cells
        .find((c) => c.dataset.language === lang && c.dataset.field === field)!
        .querySelector('.variant-cell__text')!;
    expect(text('ar', 'output_1').getAttribute('dir')).toBe('auto');
    expect(text('ar', 'output_1').getAttribute('lang')).toBe('ar');
    expect(text('hi', 'output_1').getAttribute('lang')).toBe('hi');
    // The audit reason of a code names its field.
    const flagged = cells.find((c) => c.dataset.language === 'ar' && c.dataset.field === 'output_2')!;
    expect(flagged.dataset.flagged).toBe('true');
  });

  it('names the experiment in the breadcrumb (issue 26 item 8: not "Run")', async () => {
    setApi(
      new FakeApi({
        'experiments.protocolView': protocolViews({ variants: () => VARIANTS }),
        'items.get': ({ itemId }: { itemId: number }) => ITEMS.find((i) => i.id === itemId),
        'experiments.get': () => ({ id: 7, name: 'Pilot study' }),
      }),
    );
    render(<VariantsPage experimentId={7} />);
    const crumb = await screen.findByTestId('breadcrumb-experiment');
    expect(crumb.getAttribute('href')).toBe('#/experiments/7');
    await waitFor(() => expect(crumb.textContent).toBe('Pilot study'));
  });

  it('saves an edit and says how many verdicts will be asked again, at what cost', async () => {
    const api = new FakeApi({
      'experiments.protocolView': protocolViews({ variants: () => VARIANTS }),
      'items.get': ({ itemId }: { itemId: number }) => ITEMS.find((i) => i.id === itemId),
      'experiments.protocolEdit': ({ fields }) => ({
        row: { ...VARIANTS[0], output1: fields.output1 as string, manual: true, reasons: [] },
        replanned: 4,
        estimate: estimateOf([], { costUsd: 0.0031 }),
      }),
      'experiments.start': () => ({}),
    });
    setApi(api);
    render(<VariantsPage experimentId={7} />);
    fireEvent.click(await screen.findByTestId('edit-variant-ZH'));
    fireEvent.change(screen.getByTestId('edit-output1'), { target: { value: '第一 4 个' } });
    fireEvent.click(screen.getByTestId('variant-save'));
    const notice = await screen.findByTestId('edit-notice');
    expect(notice.textContent).toContain('4 verdicts will be asked again, estimated $0.0031');
    expect(api.calls.find((c) => c.method === 'experiments.protocolEdit')!.params).toEqual({
      experimentId: 7,
      edit: 'variant',
      fields: { itemId: 1, language: 'ZH', instruction: '指令 1', output1: '第一 4 个', output2: '第二 1' },
    });
    const zhOut1 = screen
      .getAllByTestId('variant-field')
      .find((c) => c.dataset.language === 'ZH' && c.dataset.field === 'output_1')!;
    expect(zhOut1.textContent).toBe('第一 4 个');
    fireEvent.click(screen.getByTestId('rerun-start'));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'experiments.start')).toBe(true));
  });
});
