// @vitest-environment jsdom
// The least-sure panel (issue 36): how many units and why before anything is created, then one
// click makes the set from the same options and size.
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AnnotationSetSummary } from '../../../shared/annotation/api-types';
import type { LeastSureSelection } from '../../../shared/annotation/least-sure';
import { setApi } from '../api';
import { i18next } from '../i18n';
import { FakeApi } from '../test/fake-api';
import { LeastSurePanel } from './LeastSurePanel';
import { unmountAndDropApiAfterEach } from '../test/dom';

unmountAndDropApiAfterEach({ backToEnglish: true });

const selection: LeastSureSelection = {
  criteria: ['position', 'repeat', 'boundary'],
  margin: 1,
  cuts: [],
  unavailable: [{ criterion: 'boundary', reason: 'not a score scale' }],
  units: 40,
  counts: { position: 2, repeat: 1, boundary: 0 },
  items: [
    {
      itemKey: 'Natural-004',
      itemId: 4,
      category: 'Natural',
      reasons: [
        { criterion: 'position', judge: 'Sim weak', orig: '1', swap: '2' },
        { criterion: 'repeat', judge: 'Sim weak', order: 'orig', values: ['1', '2'] },
      ],
    },
    {
      itemKey: 'Natural-009',
      itemId: 9,
      category: 'Natural',
      reasons: [{ criterion: 'position', judge: 'Sim weak', orig: '2', swap: 'tie' }],
    },
  ],
};

const api = () =>
  new FakeApi({
    'annotation.leastSure': () => selection,
    'annotation.createSet': (p) =>
      ({ id: 9, name: 'exp — 1 least-sure items', itemCount: p.size }) as unknown as AnnotationSetSummary,
  });

describe('least-sure panel', () => {
  it('says how many units and why, then creates the set of the size chosen from the same options', async () => {
    const fake = api();
    setApi(fake);
    const onCreated = vi.fn();
    render(<LeastSurePanel experimentId={3} onCreated={onCreated} />);
    const summary = await screen.findByTestId('least-sure-summary');
    expect(summary.textContent).toContain('The judge is least sure about 2 of 40 units:');
    expect(summary.textContent).toContain('Orders disagree 2 · Flipped on repeat 1 · Score near a cut 0');
    expect(screen.getByTestId('least-sure-unavailable-boundary').textContent).toBe(
      'Score near a cut: not looked for (the rating is not a score).',
    );
    const items = screen.getByTestId('least-sure-items').textContent!;
    expect(items).toContain(
      'Sim weak: orders disagree (original 1, swapped 2); Sim weak: flipped on repeat (1 → 2)',
    );
    expect(items).toContain('Natural-009');
    expect(screen.getByTestId('least-sure').textContent).toContain('not drawn at random');
    // One unit only: the set takes the most doubtful.
    fireEvent.change(screen.getByTestId('least-sure-size'), { target: { value: '1' } });
    expect(screen.getByTestId('least-sure-items').textContent).not.toContain('Natural-009');
    fireEvent.click(screen.getByTestId('least-sure-create'));
    await waitFor(() => expect(onCreated).toHaveBeenCalled());
    expect(fake.calls.find((c) => c.method === 'annotation.createSet')!.params).toEqual({
      experimentId: 3,
      size: 1,
      leastSure: { criteria: ['position', 'repeat', 'boundary'], margin: 1 },
    });
    expect(screen.getByTestId('least-sure-created').textContent).toBe(
      'Created “exp — 1 least-sure items” with 1 unit.',
    );
    // A criterion unticked asks again without it.
    fireEvent.click(screen.getByTestId('least-sure-repeat'));
    await waitFor(() =>
      expect(fake.calls.filter((c) => c.method === 'annotation.leastSure').at(-1)!.params).toEqual({
        experimentId: 3,
        criteria: ['position', 'boundary'],
        margin: 1,
      }),
    );
  });

  it('says it in 中文', async () => {
    await i18next.changeLanguage('zh');
    setApi(api());
    render(<LeastSurePanel experimentId={3} onCreated={() => {}} />);
    const summary = await screen.findByTestId('least-sure-summary');
    expect(summary.textContent).toContain('评审模型对 40 个条目中的 2 个最没把握');
    expect(screen.getByTestId('least-sure-items').textContent).toContain(
      'Sim weak：两种顺序不一致（原顺序 1，交换后 2）',
    );
    expect(screen.getByTestId('least-sure-create').textContent).toBe('用这 2 个条目创建标注集');
    expect(screen.getByTestId('least-sure').textContent).not.toMatch(/\b(the|units|judge|random)\b/);
  });
});
