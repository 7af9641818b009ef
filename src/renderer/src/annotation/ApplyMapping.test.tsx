import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, setApi } from '../api';
import '../i18n';
import { experimentSummary, FakeApi } from '../test/fake-api';
import { ApplyMapping } from './ApplyMapping';

afterEach(() => {
  cleanup();
  setApi(null);
});

const EXPERIMENTS = [
  experimentSummary({ id: 3, name: 'rated run', protocol: 'bias-probes', judges: ['J'] }),
  experimentSummary({ id: 4, name: 'new run', protocol: 'bias-probes', judges: ['K', 'J'] }),
  experimentSummary({ id: 5, name: 'other protocol', protocol: 'reference-sensitivity', judges: ['J'] }),
  experimentSummary({ id: 6, name: 'other judge', protocol: 'bias-probes', judges: ['K'] }),
];

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

function api(applyMapping: (p: { experimentId: number }) => unknown) {
  const fake = new FakeApi({
    'annotation.getSet': () => ({ id: 1, experimentId: 3 }),
    'experiments.list': () => EXPERIMENTS,
    'annotation.applyMapping': applyMapping,
  });
  setApi(fake);
  return fake;
}

describe('Apply mapping', () => {
  it('offers the experiments of the same protocol with the judge, and shows the calibrated scores', async () => {
    const fake = api(() => ({ rows: ROWS, category: 'all', mappingId: 9 }));
    render(<ApplyMapping setId={1} judges={['J']} />);
    const target = (await screen.findByTestId('apply-mapping-target')) as HTMLSelectElement;
    expect([...target.options].map((o) => o.textContent)).toEqual(['rated run', 'new run']);
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

  it('says why the core refuses a target', async () => {
    api(() => {
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
    api(() => null);
    render(<ApplyMapping setId={1} judges={['Z']} />);
    expect(await screen.findByText('No other experiment of this protocol has this judge yet.')).toBeTruthy();
    expect(screen.queryByTestId('apply-mapping-button')).toBeNull();
  });
});
