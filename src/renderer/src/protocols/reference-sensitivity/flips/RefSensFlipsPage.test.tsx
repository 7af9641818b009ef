// @vitest-environment jsdom
// Reference sensitivity's flip browser: rows from the core's "flips" view, filters in the URL
// query, and an opened answer with its texts (Arabic right to left via dir="auto"), each
// setting's verdict and the explanations' diff; model text shown as text, never as HTML.
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FlipRowView, FlipsView } from '../../../../../shared/protocols/reference-sensitivity/views';
import '../../../i18n';
import '../../index';
import { RefSensFlipsPage } from './RefSensFlipsPage';
import { rowKey } from './query';
import {
  giveElementsAWindowBox,
  moveToSecondRowAndOpen,
  unmountAndDropApiAfterEach,
} from '../../../test/dom';
import { renderProtocolPage } from '../../../test/results';

const ROW: FlipRowView = {
  judge: 'Judge A',
  generator: 'Gen',
  sourceId: 'arabic-1',
  itemId: 7,
  language: 'ar',
  question: 'ما هي عاصمة مصر؟',
  gold: ['القاهرة'],
  answer: 'الإسكندرية <b>bold</b>',
  humanLabel: 'INCORRECT',
  verdicts: {
    NR: {
      status: 'ok',
      verdict: 'CORRECT',
      extracted: 'الإسكندرية',
      explanation: 'The answer looks plausible.',
      reason: null,
    },
    RV: {
      status: 'ok',
      verdict: 'INCORRECT',
      extracted: 'الإسكندرية',
      explanation: 'The answer does not match the reference.',
      reason: null,
    },
    RC: {
      status: 'failed',
      verdict: null,
      extracted: null,
      explanation: null,
      reason: 'unparseable: not JSON',
    },
  },
  flips: { 'NR-RV': 'correct_to_incorrect' },
};

const VIEW: FlipsView = {
  rows: [ROW, { ...ROW, sourceId: 'arabic-2', judge: 'Judge B' }],
  total: 2,
  judges: ['Judge A', 'Judge B'],
  generators: ['Gen'],
  languages: ['en', 'ar', 'te'],
  settings: ['NR', 'RV', 'RC'],
};

giveElementsAWindowBox();
unmountAndDropApiAfterEach();

function setup(query: Record<string, string>, view: FlipsView = VIEW) {
  return renderProtocolPage(RefSensFlipsPage, 4, query, view);
}

describe('reference-sensitivity flip browser', () => {
  it('lists the rows the core returns, asking with the filters of the URL', async () => {
    const { api } = setup({ judge: 'Judge A', transition: 'NR-RV' });
    const rows = await screen.findAllByTestId('refsens-flip-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]).getByText('ما هي عاصمة مصر؟').getAttribute('dir')).toBe('auto');
    expect(rows[0].textContent).toContain('✓ · ✗ · !');
    expect(api.calls[0]).toEqual({
      method: 'experiments.protocolView',
      params: {
        experimentId: 4,
        view: 'flips',
        query: { flipsOnly: true, judge: 'Judge A', transition: 'NR-RV' },
      },
    });
    expect(screen.getByTestId('refsens-flips-count').textContent).toBe('2 of 2 answers');
  });

  it('puts a changed filter in the URL and opens a row by its key', async () => {
    const { onNavigate } = setup({});
    await screen.findAllByTestId('refsens-flip-row');
    fireEvent.change(screen.getByTestId('refsens-filter-language'), { target: { value: 'ar' } });
    expect(onNavigate).toHaveBeenLastCalledWith({
      name: 'experiment-page',
      experimentId: 4,
      page: 'refsens-flips',
      query: { language: 'ar' },
    });
    fireEvent.change(screen.getByTestId('refsens-filter-change'), {
      target: { value: 'incorrect_to_correct' },
    });
    expect(onNavigate.mock.lastCall?.[0].query).toEqual({ change: 'incorrect_to_correct' });
    // The rows as drawn now: the virtual list may have drawn them again since the first look.
    fireEvent.click((await screen.findAllByTestId('refsens-flip-row'))[1]);
    expect(onNavigate.mock.lastCall?.[0].query).toEqual({ open: rowKey(VIEW.rows[1]) });
  });

  it('moves through the list with the arrow keys and opens a row with Enter (issue 26 item 8)', async () => {
    const { onNavigate } = setup({});
    await moveToSecondRowAndOpen('refsens-flip-list', 'refsens-flip-row');
    expect(onNavigate.mock.lastCall?.[0].query).toEqual({ open: rowKey(VIEW.rows[1]) });
  });

  it('shows an opened answer: texts right to left, verdicts per setting, the diff, the human label; HTML as text', async () => {
    setup({ open: rowKey(ROW) });
    const detail = await screen.findByTestId('refsens-flip-detail');
    for (const id of ['flip-question', 'flip-answer'])
      expect(within(detail).getByTestId(id).getAttribute('dir')).toBe('auto');
    expect(within(detail).getByTestId('flip-question').textContent).toBe(ROW.question);
    // The model's markup is text: no <b> element, the angle brackets on screen.
    expect(within(detail).getByTestId('flip-answer').textContent).toBe('الإسكندرية <b>bold</b>');
    expect(detail.querySelector('b')).toBeNull();
    expect(within(detail).getByTestId('flip-gold').textContent).toBe('القاهرة');
    expect(screen.getByTestId('verdict-NR-verdict').textContent).toBe('CORRECT');
    expect(screen.getByTestId('verdict-RV-verdict').textContent).toBe('INCORRECT');
    expect(screen.getByTestId('verdict-RC-verdict').textContent).toBe('no valid verdict');
    expect(screen.getByTestId('verdict-NR-extracted').getAttribute('dir')).toBe('auto');
    expect(screen.getByTestId('human-label').textContent).toBe('Human label: INCORRECT');
    const diff = screen.getByTestId('reason-diff');
    expect(diff.textContent).toContain('plausible');
    expect(diff.textContent).toContain('reference');
  });

  it('marks the answers whose NR verdict flipped on repeat as well, only with the noise floor on', async () => {
    const view: FlipsView = {
      ...VIEW,
      rows: [
        { ...ROW, nrRepeatFlipped: true },
        { ...ROW, sourceId: 'arabic-2', judge: 'Judge B', nrRepeatFlipped: false },
      ],
    };
    setup({}, view);
    const rows = await screen.findAllByTestId('refsens-flip-row');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toContain('NR repeat');
    expect(within(rows[0]).getByTestId('repeat-flipped').textContent).toBe('flipped on repeat as well');
    expect(within(rows[0]).getByTestId('repeat-flipped').getAttribute('title')).toMatch(/own noise/);
    expect(within(rows[1]).queryByTestId('repeat-flipped')).toBeNull();
    expect(rows[1].textContent).toMatch(/same$/);
    cleanup();
    setup({ open: rowKey(ROW) }, view);
    expect((await screen.findByTestId('repeat-flipped-detail')).textContent).toBe(
      'flipped on repeat as well',
    );
  });

  it('has no repeat column or marker when the noise floor was off', async () => {
    setup({});
    await screen.findAllByTestId('refsens-flip-row');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).not.toContain('NR repeat');
    expect(screen.queryByTestId('repeat-flipped')).toBeNull();
  });
});
