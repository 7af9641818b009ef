// @vitest-environment jsdom
// The label budget in the set creator (issue 36): the PPI++ count for a target width, beside people
// alone, from the experiment's size; "Use" puts it into the set size.
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ExperimentDetail } from '../../../shared/experiments';
import { setApi } from '../api';
import { i18next } from '../i18n';
import { FakeApi } from '../test/fake-api';
import { AnnotationPage } from './AnnotationPage';
import { LabelBudget } from './LabelBudget';
import { unmountAndDropApiAfterEach } from '../test/dom';

unmountAndDropApiAfterEach({ backToEnglish: true });

const api = () =>
  new FakeApi({ 'experiments.get': () => ({ itemCount: 1050 }) as unknown as ExperimentDetail });

describe('label budget', () => {
  it('needs 276 labels with PPI++ at ρ 0.6 for a width of 0.1 over 1000 other units (people alone: 385)', async () => {
    setApi(api());
    const onUse = vi.fn();
    render(<LabelBudget experimentId={1} size={50} onUse={onUse} />);
    const result = await screen.findByText(/about 276 human labels/);
    expect(result.textContent).toContain('people alone: 385');
    expect(result.textContent).toContain('other 1000 units');
    fireEvent.click(screen.getByTestId('budget-use'));
    // Which items: bands of 350; after 10 each, 246 by the SDs of disagreements 0.1, 0.3, 0.1
    // (0.3 : 0.458 : 0.3) → 70, 106, 70.
    expect(screen.getByTestId('budget-allocation').textContent).toContain(
      '80 from the low band, 116 from the middle, 80 from the high',
    );
    expect(onUse).toHaveBeenCalledWith(276, { low: 80, mid: 116, high: 80 });
    // The judge as weak in every band: the labels spread evenly (276 − 30 = 246 → 82 each).
    for (const b of ['low', 'mid', 'high'])
      fireEvent.change(screen.getByTestId(`budget-disagreement-${b}`), { target: { value: '0.2' } });
    expect(screen.getByTestId('budget-allocation').textContent).toContain(
      '92 from the low band, 92 from the middle',
    );
    // No correlation: the judge saves nothing.
    fireEvent.change(screen.getByTestId('budget-rho'), { target: { value: '0' } });
    expect(screen.getByTestId('budget-result').textContent).toContain('about 385 human labels');
  });
  it('says it in 中文', async () => {
    await i18next.changeLanguage('zh');
    setApi(api());
    render(<LabelBudget experimentId={1} size={50} onUse={() => {}} />);
    expect((await screen.findByText(/约需 276 个人工标签/)).textContent).toContain('仅靠人工需 385 个');
    expect(screen.getByTestId('label-budget').textContent).toContain('标签预算（PPI++）');
    expect(screen.getByTestId('budget-allocation').textContent).toContain(
      '低分段 80 个，中间段 116 个，高分段 80 个',
    );
  });
  it('draws the set with the band counts the budget allocated, until the size is changed by hand', async () => {
    const fake = new FakeApi({
      'experiments.get': () => ({ itemCount: 1050 }) as unknown as ExperimentDetail,
      'annotation.tasks': () => ({ tasks: [] }),
      'annotation.annotators': () => [],
      'annotation.listSets': () => [],
      'annotation.createSet': () => ({}) as never,
    });
    setApi(fake);
    render(<AnnotationPage experimentId={1} query={{}} onQuery={() => {}} />);
    // The form starts at 200 items, so the other 850 are the judge's: PPI++ needs 281.
    fireEvent.click(await screen.findByTestId('budget-use'));
    expect((screen.getByTestId('create-size') as HTMLInputElement).value).toBe('281');
    fireEvent.click(screen.getByTestId('create-submit'));
    const created = () => fake.calls.filter((c) => c.method === 'annotation.createSet');
    await waitFor(() => expect(created()).toHaveLength(1));
    // Bands of 350; after 10 each, 251 split 0.3 : 0.458 : 0.3 → 71.2, 108.6, 71.2 → 71, 109, 71.
    expect(created()[0].params).toMatchObject({ size: 281, bandCounts: { low: 81, mid: 119, high: 81 } });
    // A size typed by hand is a plain stratified sample again.
    fireEvent.change(screen.getByTestId('create-size'), { target: { value: '100' } });
    fireEvent.click(screen.getByTestId('create-submit'));
    await waitFor(() => expect(created()).toHaveLength(2));
    expect(created()[1].params).not.toHaveProperty('bandCounts');
  });
  it('takes the disagreement per band from a rated pilot set', async () => {
    const fake = new FakeApi({
      'experiments.get': () => ({ itemCount: 1050 }) as unknown as ExperimentDetail,
      'annotation.listSets': () =>
        [
          { id: 7, name: 'pilot', progress: [{ annotator: 'a', labelled: 30, total: 30 }] },
          { id: 8, name: 'empty', progress: [{ annotator: 'a', labelled: 0, total: 30 }] },
        ] as never,
      'annotation.agreement': () =>
        ({
          judge_and_people: {
            judges: [
              {
                judge: 'J',
                band_disagreement: [
                  { band: 'low', labelled: 10, disagreement: 0.5 },
                  { band: 'mid', labelled: 10, disagreement: 0.1 },
                  { band: 'high', labelled: 0, disagreement: null },
                ],
              },
            ],
          },
        }) as never,
    });
    setApi(fake);
    render(<LabelBudget experimentId={1} size={50} onUse={() => {}} />);
    const select = (await screen.findByTestId('budget-pilot')) as HTMLSelectElement;
    // Only the set with labels is a pilot.
    expect([...select.options].map((o) => o.textContent)).toEqual(['(assumed)', 'pilot']);
    fireEvent.change(select, { target: { value: '7' } });
    await screen.findByTestId('budget-pilot-note');
    expect(fake.calls.find((c) => c.method === 'annotation.agreement')!.params).toEqual({ setId: 7 });
    expect((screen.getByTestId('budget-disagreement-low') as HTMLInputElement).value).toBe('0.5');
    expect((screen.getByTestId('budget-disagreement-mid') as HTMLInputElement).value).toBe('0.1');
    // High keeps its assumed 0.1. SDs 0.5 : 0.3 : 0.3 of 1.1 over 246 → 111.8, 67.1, 67.1 → 112, 67, 67.
    expect(screen.getByTestId('budget-allocation').textContent).toContain(
      '122 from the low band, 77 from the middle, 77 from the high',
    );
    expect(screen.getByTestId('budget-pilot-note').textContent).toContain(
      'labelled: low 10, middle 10, high 0',
    );
  });
});
