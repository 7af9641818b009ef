// @vitest-environment jsdom
// Self-consistency's unstable-items browser, on the browser kit it shares with reference
// sensitivity's flips: rows from the core's "repeats" view for the URL's filters, keys to move
// and open, and an opened question with every repeat's verdict and the dissenting reasons' diff.
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { QuestionView, RepeatsViewResult } from '../../../../shared/protocols/self-consistency/views';
import '../../i18n';
import { giveElementsAWindowBox, moveToSecondRowAndOpen, unmountAndDropApiAfterEach } from '../../test/dom';
import '../index';
import { rowKey } from './query';
import { UnstablePage } from './UnstablePage';
import { renderProtocolPage } from '../../test/results';

giveElementsAWindowBox();
unmountAndDropApiAfterEach();

const ROW: QuestionView = {
  judge: 'Judge A',
  condition: 'own',
  temperature: null,
  itemId: 'item-1',
  category: 'chat',
  order: 'orig',
  instruction: 'Which answer is kinder? <i>markup</i>',
  shown: ['first', 'second'],
  gold: 'A',
  repeats: [
    {
      sample: 0,
      status: 'ok',
      verdict: 'A',
      confidence: 0.9,
      reason: 'A is polite and warm.',
      failure: null,
    },
    {
      sample: 1,
      status: 'ok',
      verdict: 'B',
      confidence: null,
      reason: 'B is polite and short.',
      failure: null,
    },
    {
      sample: 2,
      status: 'failed',
      verdict: null,
      confidence: null,
      reason: null,
      failure: 'unparseable: no JSON',
    },
  ],
  distinct: 2,
};

const VIEW: RepeatsViewResult = {
  rows: [ROW, { ...ROW, itemId: 'item-2', judge: 'Judge B' }],
  total: 7,
  judges: ['Judge A', 'Judge B'],
  conditions: ['own', 'T=0.7'],
  categories: ['chat'],
  mode: 'pairwise',
};

function setup(query: Record<string, string>) {
  return renderProtocolPage(UnstablePage, 9, query, VIEW);
}

describe('self-consistency unstable-items browser', () => {
  it('lists the questions the core returns for the URL filters, and puts a changed filter in the URL', async () => {
    const { api, onNavigate } = setup({ judge: 'Judge A', all: '1' });
    const rows = await screen.findAllByTestId('sc-unstable-row');
    expect(rows).toHaveLength(2);
    expect(rows[0].textContent).toContain('A B ×');
    expect(rows[0].textContent).toContain("judge's own");
    expect(api.calls[0]).toEqual({
      method: 'experiments.protocolView',
      params: { experimentId: 9, view: 'repeats', query: { unstableOnly: false, judge: 'Judge A' } },
    });
    expect(screen.getByTestId('sc-unstable-count').textContent).toBe('2 of 7 questions');
    expect((screen.getByTestId('sc-filter-all') as HTMLInputElement).checked).toBe(true);
    fireEvent.change(screen.getByTestId('sc-filter-condition'), { target: { value: 'T=0.7' } });
    expect(onNavigate).toHaveBeenLastCalledWith({
      name: 'experiment-page',
      experimentId: 9,
      page: 'sc-unstable',
      query: { judge: 'Judge A', all: '1', condition: 'T=0.7' },
    });
  });

  it('moves through the list with the arrow keys and opens a question with Enter', async () => {
    const { onNavigate } = setup({});
    await moveToSecondRowAndOpen('sc-unstable-list', 'sc-unstable-row');
    expect(onNavigate.mock.lastCall?.[0].query).toEqual({ open: rowKey(VIEW.rows[1]) });
  });

  it('shows an opened question: the texts as text, every repeat, and the dissenting reason against repeat 1', async () => {
    const { onNavigate } = setup({ open: rowKey(ROW), judge: 'Judge A' });
    const detail = await screen.findByTestId('sc-question-detail');
    expect(within(detail).getByTestId('sc-instruction').textContent).toBe(ROW.instruction);
    expect(detail.querySelector('i')).toBeNull();
    expect(screen.getAllByTestId('sc-repeat-verdict').map((v) => v.textContent)).toEqual([
      'A',
      'B',
      'No usable answer',
    ]);
    expect(screen.getAllByTestId('sc-repeat')[0].className).toContain('verdict-card--right');
    expect(screen.getAllByTestId('sc-repeat')[1].className).toContain('verdict-card--wrong');
    const diffs = screen.getAllByTestId('sc-reason-diff');
    expect(diffs).toHaveLength(1);
    expect(diffs[0].textContent).toContain('Repeat 2 against repeat 1');
    fireEvent.click(within(detail).getByText(/Back to the list/));
    expect(onNavigate.mock.lastCall?.[0].query).toEqual({ judge: 'Judge A' });
  });
});
