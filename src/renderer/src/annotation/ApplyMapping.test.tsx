import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MappingTargets } from '../../../shared/annotation/api-types';
import { ApiError, setApi } from '../api';
import { i18next } from '../i18n';
import { FakeApi } from '../test/fake-api';
import { ApplyMapping } from './ApplyMapping';
import { unmountAndDropApiAfterEach } from '../test/dom';

unmountAndDropApiAfterEach({ backToEnglish: true });

const ROWS = [
  {
    itemKey: 'a#output_1',
    judge: 'J',
    category: null,
    raw: 4,
    calibrated: 3.5,
    linear: 3.25,
    mapping: 'all',
  },
  { itemKey: 'b#output_1', judge: 'J', category: null, raw: 2, calibrated: 2, linear: 2.1, mapping: 'all' },
];

const GOOD = { rho: 0.81, floor: 0.3, below: false };
const BAD = { rho: -0.58, floor: 0.3, below: true };

function targets(quality = GOOD): MappingTargets {
  return {
    quality,
    targets: [
      { experimentId: 3, name: 'rated run', judges: ['J'] },
      { experimentId: 4, name: 'new run', judges: ['J', 'K'] },
    ],
    excluded: [
      {
        experimentId: 5,
        name: 'other rubric',
        reasons: [
          { code: 'rubric', detail: 'prompt templates (rubric)' },
          { code: 'scale', detail: 'rating scale 1–5 vs 1–10', ours: '1–5', theirs: '1–10' },
        ],
      },
      {
        experimentId: 6,
        name: 'other model',
        reasons: [{ code: 'model', detail: 'model m1 vs m2', ours: 'm1', theirs: 'm2' }],
      },
    ],
  };
}

function api(
  mappingTargets: MappingTargets,
  applyMapping: (p: { experimentId: number; force?: boolean }) => unknown,
) {
  const fake = new FakeApi({
    'annotation.mappingTargets': () => mappingTargets,
    'annotation.applyMapping': applyMapping,
  });
  setApi(fake);
  return fake;
}

const applied = (over = {}) => ({
  rows: ROWS,
  category: 'all',
  mappingId: 9,
  quality: GOOD,
  flattened: 0,
  forced: false,
  ...over,
});

describe('Apply mapping', () => {
  it('offers only the experiments that fit, says why the others do not, and shows the calibrated scores', async () => {
    const fake = api(targets(), () => applied());
    render(<ApplyMapping setId={1} judges={['J']} />);
    const target = (await screen.findByTestId('apply-mapping-target')) as HTMLSelectElement;
    expect([...target.options].map((o) => o.textContent)).toEqual(['rated run', 'new run']);
    const excluded = screen.getAllByTestId('apply-mapping-excluded-row').map((r) => r.textContent);
    expect(excluded).toEqual([
      'other rubric: its prompt templates (the rubric) differ from the rated run’s; another rating scale (1–10; the mapping’s is 1–5)',
      'other model: its judge is another model (m2; the mapping’s judge is m1)',
    ]);
    expect(screen.queryByTestId('apply-mapping-warning')).toBeNull();
    fireEvent.change(target, { target: { value: '4' } });
    fireEvent.click(screen.getByTestId('apply-mapping-button'));
    const result = await screen.findByTestId('apply-mapping-result');
    expect(fake.calls.find((c) => c.method === 'annotation.applyMapping')!.params).toEqual({
      setId: 1,
      judge: 'J',
      experimentId: 4,
    });
    expect(result.textContent).toContain('Calibrated 2 scores with the overall mapping (mapping 9).');
    expect(result.textContent).toContain('a#output_1');
    expect(result.textContent).toContain('3.50');
  });

  it('warns below the floor and applies only when the person insists', async () => {
    const fake = api(targets(BAD), () => applied({ quality: BAD, flattened: 2, forced: true }));
    render(<ApplyMapping setId={1} judges={['J']} />);
    const warning = await screen.findByTestId('apply-mapping-warning');
    expect(warning.textContent).toContain('held-out ρ is -0.58, below the floor of 0.3');
    const button = screen.getByTestId('apply-mapping-button') as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    fireEvent.click(button);
    expect(fake.calls.some((c) => c.method === 'annotation.applyMapping')).toBe(false);
    fireEvent.click(screen.getByTestId('apply-mapping-insist'));
    expect(button.disabled).toBe(false);
    fireEvent.click(button);
    await screen.findByTestId('apply-mapping-result');
    expect(fake.calls.find((c) => c.method === 'annotation.applyMapping')!.params).toEqual({
      setId: 1,
      judge: 'J',
      experimentId: 3,
      force: true,
    });
    expect(screen.getByTestId('apply-mapping-forced').textContent).toBe(
      'Applied below the floor (held-out ρ -0.58): 2 of 2 scores share a calibrated value with a different raw score.',
    );
  });

  it('words the reasons and the warning in 中文', async () => {
    await i18next.changeLanguage('zh');
    api(targets(BAD), () => applied());
    render(<ApplyMapping setId={1} judges={['J']} />);
    expect((await screen.findByTestId('apply-mapping-warning')).textContent).toContain('低于下限 0.3');
    expect(screen.getAllByTestId('apply-mapping-excluded-row')[1].textContent).toBe(
      'other model: 其评审是另一个模型（m2；映射的评审是 m1）',
    );
  });

  it('says why the core refuses a target', async () => {
    api(targets(), () => {
      throw new ApiError('conflict', 'The mapping does not fit this experiment: model sim-judge vs other');
    });
    render(<ApplyMapping setId={1} judges={['J']} />);
    fireEvent.click(await screen.findByTestId('apply-mapping-button'));
    await waitFor(() =>
      expect(screen.getByTestId('apply-mapping-error').textContent).toBe(
        'The mapping does not fit this experiment: model sim-judge vs other',
      ),
    );
    expect(screen.queryByTestId('apply-mapping-result')).toBeNull();
  });

  it('says so when no experiment can take the mapping', async () => {
    api({ quality: GOOD, targets: [], excluded: targets().excluded }, () => null);
    render(<ApplyMapping setId={1} judges={['Z']} />);
    expect(await screen.findByText('No experiment can take this mapping yet.')).toBeTruthy();
    expect(screen.queryByTestId('apply-mapping-button')).toBeNull();
    expect(screen.getByText('2 experiments are not offered, and why')).toBeTruthy();
  });
});
