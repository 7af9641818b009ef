// Issue 26 item 5 on screen: the rating screen shows the set's guidelines (as text, never HTML),
// the editor saves a new version, and the adjudication view puts the differing labels side by
// side and sends the adjudicated label with who gave it. The fake stands in for the transport
// and keeps the adjudication the way the core does (apart from the labels, with who and when).
import { formatDateTime } from '../lib/format';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Disagreement, GuidelinesVersion } from '../../../shared/annotation/api-types';
import { setApi } from '../api';
import { i18next } from '../i18n';
import { FakeApi } from '../test/fake-api';
import { AdjudicationView } from './AdjudicationView';
import { AnnotateScreen } from './AnnotateScreen';
import { GuidelinesEditor } from './GuidelinesPanel';

afterEach(async () => {
  cleanup();
  setApi(null);
  localStorage.clear();
  await i18next.changeLanguage('en');
});

const differing = (): Disagreement => ({
  unitUid: 'u1',
  view: { prompt: 'Name a prime.', context: null, responses: ['<b>7</b>', '9'] },
  labels: [
    { annotator: 'ann', value: '1', comment: 'A is prime', guidelinesVersion: 1 },
    { annotator: 'bo', value: '2', comment: null, guidelinesVersion: 2 },
  ],
  majority: null,
  adjudication: null,
});

describe('guidelines on the rating screen', () => {
  it('shows the current version’s text as text above the item', async () => {
    setApi(
      new FakeApi({
        'annotation.session': () => ({
          set: { id: 1, name: 's', scale: { kind: 'preference' }, progress: [] },
          annotator: 'ann',
          items: [
            {
              unitUid: 'u1',
              view: { prompt: 'p', responses: ['a', 'b'] },
              value: null,
              skipped: false,
              comment: null,
            },
          ],
          resumeAt: 0,
          guidelines: { version: 3, text: 'Prefer <i>correct</i> answers.\nIgnore length.', createdAt: 'x' },
        }),
      }),
    );
    render(<AnnotateScreen setId={1} annotator="ann" onBack={() => {}} />);
    const panel = await screen.findByTestId('annotate-guidelines');
    expect(panel.textContent).toContain('Guidelines · version 3');
    expect(screen.getByTestId('guidelines-text').textContent).toBe(
      'Prefer <i>correct</i> answers.\nIgnore length.',
    );
    expect(panel.querySelector('i')).toBeNull();
  });

  it('saves an edit as a new version, and says so in 中文', async () => {
    await i18next.changeLanguage('zh');
    const versions: GuidelinesVersion[] = [{ version: 1, text: 'Old rules', createdAt: 't1' }];
    const fake = new FakeApi({
      'annotation.guidelines': () => versions,
      'annotation.setGuidelines': (p) => {
        const v = { version: versions.length + 1, text: p.text, createdAt: 't2' };
        versions.push(v);
        return v;
      },
    });
    setApi(fake);
    render(<GuidelinesEditor setId={4} />);
    const input = (await screen.findByDisplayValue('Old rules')) as HTMLTextAreaElement;
    fireEvent.change(input, { target: { value: 'New rules' } });
    fireEvent.click(screen.getByTestId('guidelines-save'));
    await screen.findByText('已保存为第 2 版。');
    expect(fake.calls.find((c) => c.method === 'annotation.setGuidelines')!.params).toEqual({
      setId: 4,
      text: 'New rules',
    });
  });
});

describe('the adjudication view', () => {
  it('lists differing labels side by side and stores the adjudicated label with its adjudicator', async () => {
    let item = differing();
    const fake = new FakeApi({
      'annotation.disagreements': () => [item],
      'annotation.adjudicate': (p) => {
        item = {
          ...item,
          adjudication:
            p.value === null
              ? null
              : {
                  value: p.value,
                  adjudicator: p.adjudicator,
                  note: p.note ?? null,
                  createdAt: '2026-12-02T03:00:00Z',
                },
        };
        return [item];
      },
    });
    setApi(fake);
    render(<AdjudicationView setId={2} scale={{ kind: 'preference' }} />);
    const card = await screen.findByTestId('disagreement');
    const rows = within(card).getAllByRole('row').slice(1);
    expect(rows.map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent))).toEqual([
      ['ann', 'A', '1', 'A is prime'],
      ['bo', 'B', '2', ''],
    ]);
    // Each header sits over its cells: aligned the same way (a right-aligned value under a
    // left-aligned header read as the next column's).
    const headAlign = [...within(card).getAllByRole('row')[0].querySelectorAll('th')].map((c) =>
      c.classList.contains('num'),
    );
    for (const r of rows)
      expect([...r.querySelectorAll('td')].map((c) => c.classList.contains('num'))).toEqual(headAlign);
    expect(within(card).getByText('Median or majority: undefined (the labels tie)')).toBeTruthy();
    // Model text stays text.
    expect(within(card).getByText('<b>7</b>')).toBeTruthy();
    expect(card.querySelector('b')).toBeNull();

    // No adjudicator name: nothing is sent.
    fireEvent.click(within(card).getByTestId('settle-1'));
    await screen.findByText('Type the adjudicator’s name first.');
    expect(fake.calls.some((c) => c.method === 'annotation.adjudicate')).toBe(false);

    fireEvent.change(screen.getByTestId('adjudicator-name'), { target: { value: 'chair' } });
    fireEvent.change(within(card).getByLabelText('Note (optional)'), { target: { value: 'A is prime' } });
    fireEvent.click(within(card).getByTestId('settle-1'));
    await waitFor(() => expect(screen.getByTestId('disagreement').getAttribute('data-settled')).toBe('1'));
    expect(fake.calls.find((c) => c.method === 'annotation.adjudicate')!.params).toEqual({
      setId: 2,
      unitUid: 'u1',
      value: '1',
      adjudicator: 'chair',
      note: 'A is prime',
    });
    // The time in the UI language's format, not the stored ISO string (issue 38 item 10).
    expect(screen.getByTestId('adjudicated').textContent).toBe(
      `Adjudicated: A by chair at ${formatDateTime('2026-12-02T03:00:00Z', 'en')} — A is prime`,
    );
    expect(screen.getByTestId('adjudicated').textContent).not.toContain('T03:00:00Z');
    expect(screen.getByTestId('adjudication-count').textContent).toBe('0 open · 1 adjudicated');

    fireEvent.click(screen.getByText('Withdraw'));
    await waitFor(() => expect(screen.getByTestId('disagreement').getAttribute('data-settled')).toBe(''));
  });
});
