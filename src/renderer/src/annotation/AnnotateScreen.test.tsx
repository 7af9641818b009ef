// Issue 20 item 5: a rating key saves and moves on, so `1` then `n` skips an item. The screen's
// count and its end-of-set message must be the store's tally (what `annotate sets` prints), not
// "the cursor passed the last item". The fake stands in for the transport and keeps the labels
// the way the core does (one stored row per label, the tally counted from the rows).
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnnotatorProgress, SessionItem } from '../../../shared/annotation/api-types';
import type { RatingScale } from '../../../shared/annotation/types';
import { setApi } from '../api';
import { i18next } from '../i18n';
import { FakeApi } from '../test/fake-api';
import { AnnotateScreen, ratingOptions } from './AnnotateScreen';
import { AnnotationPage } from './AnnotationPage';
import { useState } from 'react';

afterEach(async () => {
  cleanup();
  localStorage.clear();
  setApi(null);
  await i18next.changeLanguage('en');
});

const N = 6;
const UNITS = Array.from({ length: N }, (_, i) => `u${i}`);

function storeApi(
  scale: RatingScale = { kind: 'score', min: 1, max: 5 },
  more: (tally: () => AnnotatorProgress) => ConstructorParameters<typeof FakeApi>[0] = () => ({}),
) {
  const labels = new Map<string, { value: string | null; skipped: boolean; comment: string | null }>();
  const tally = (): AnnotatorProgress => ({
    annotator: 'alice',
    labelled: [...labels.values()].filter((l) => !l.skipped).length,
    skipped: [...labels.values()].filter((l) => l.skipped).length,
    total: N,
  });
  const fake = new FakeApi({
    ...more(tally),
    'annotation.session': () => ({
      set: {
        id: 1,
        name: 'set',
        scale,
        progress: labels.size ? [tally()] : [],
      },
      annotator: 'alice',
      items: UNITS.map((u): SessionItem => ({
        unitUid: u,
        view: { prompt: `Prompt ${u}`, context: null, responses: [`Answer ${u}`] },
        value: (labels.get(u)?.value as SessionItem['value']) ?? null,
        skipped: labels.get(u)?.skipped ?? false,
        comment: labels.get(u)?.comment ?? null,
      })),
      resumeAt: 0,
    }),
    // As the core: a comment alone on an unrated unit is refused, a patch keeps what it omits.
    'annotation.label': (p) => {
      const before = labels.get(p.unitUid);
      const skipped = p.skip === true ? true : p.value != null ? false : (before?.skipped ?? false);
      const value = p.value != null ? String(p.value) : skipped ? null : (before?.value ?? null);
      const comment = p.comment !== undefined ? p.comment : (before?.comment ?? null);
      if (value === null && !skipped) throw new Error('Rate or skip the item before commenting on it');
      labels.set(p.unitUid, { value, skipped, comment });
      return tally();
    },
  });
  setApi(fake);
  return { fake, labels, tally };
}

const unitShown = () => screen.queryByTestId('annotate-item')?.getAttribute('data-unit') ?? null;

async function press(key: string, expectUnitAfter: string | null) {
  act(() => {
    fireEvent.keyDown(window, { key });
  });
  await waitFor(() => expect(unitShown()).toBe(expectUnitAfter));
  await waitFor(() => expect(screen.queryByTestId('annotate-state')?.textContent).not.toBe('Saving…'));
}

describe('Annotation screen completion', () => {
  it('pressing 1 then n rates every other item, and the end says how many are still unrated', async () => {
    const { labels, tally } = storeApi();
    render(<AnnotateScreen setId={1} annotator="alice" onBack={() => {}} />);
    await waitFor(() => expect(unitShown()).toBe('u0'));
    // The legend says a rating key moves on too.
    expect(screen.getByText(/1–5: give that score and go to the next item/)).toBeTruthy();
    expect(screen.getByText(/n \/ p: next \/ previous without rating/)).toBeTruthy();
    for (let i = 0; i < N; i += 2) {
      await press('1', UNITS[i + 1]);
      await press('n', UNITS[i + 2] ?? null);
    }
    expect(labels.size).toBe(N / 2);
    // Past the last item with half of them stored: not "all rated".
    expect(screen.queryByTestId('annotate-done')).toBeNull();
    const notDone = screen.getByTestId('annotate-not-done');
    expect(notDone.textContent).toContain(`End of the list, but ${N / 2} items are not rated yet.`);
    const progress = screen.getByTestId('annotate-progress');
    expect(progress.getAttribute('data-done')).toBe(String(tally().labelled));
    expect(progress.textContent).toBe(`${N / 2} of ${N} rated`);

    // The button goes back to the first unrated item; rating the rest finishes the set.
    fireEvent.click(screen.getByTestId('annotate-first-unrated'));
    await waitFor(() => expect(unitShown()).toBe('u1'));
    for (let i = 1; i < N; i += 2) {
      await press('4', UNITS[i + 1] ?? null);
      if (i + 2 < N) await press('n', UNITS[i + 2]);
    }
    // The last rating moved past the end with every item stored.
    await waitFor(() =>
      expect(screen.getByTestId('annotate-done').textContent).toBe(`All ${N} items rated. Thank you!`),
    );
    expect(screen.getByTestId('annotate-progress').textContent).toBe(`${N} of ${N} rated`);
  });

  it('counts skips apart from ratings, as the store does, in 中文 too', async () => {
    storeApi();
    await i18next.changeLanguage('zh');
    render(<AnnotateScreen setId={1} annotator="alice" onBack={() => {}} />);
    await waitFor(() => expect(unitShown()).toBe('u0'));
    expect(screen.getByText(/1–5：打该分并转到下一条/)).toBeTruthy();
    for (let i = 0; i < N; i++) await press(i === 2 ? 's' : '3', UNITS[i + 1] ?? null);
    expect(screen.getByTestId('annotate-done').textContent).toBe(
      '每一条都已评分或跳过（已评 5，跳过 1），谢谢！',
    );
    expect(screen.getByTestId('annotate-progress').textContent).toBe('已评 5 / 6 · 跳过 1');
  });
});

const labelCalls = (fake: FakeApi) =>
  fake.calls.filter((c) => c.method === 'annotation.label').map((c) => c.params as Record<string, unknown>);

async function settle() {
  await waitFor(() => expect(screen.queryByTestId('annotate-state')?.textContent).not.toBe('Saving…'));
}

// Issue 38 item 3: trackpad and touch annotators had no way to rate, and a comment typed before
// the rating was dropped.
describe('Annotation screen buttons and comments (issue 38)', () => {
  it('rates a pairwise set by buttons alone: A, B, tie, skip, previous and next', async () => {
    const { fake, labels } = storeApi({ kind: 'preference' });
    render(<AnnotateScreen setId={1} annotator="alice" onBack={() => {}} />);
    await waitFor(() => expect(unitShown()).toBe('u0'));
    const button = (name: string) => screen.getByRole('button', { name });
    expect(screen.getByRole('group', { name: 'Rating' })).toBeTruthy();
    // A double click gives one label: the second comes while the first is being stored.
    fireEvent.click(button('A is better'));
    fireEvent.click(button('A is better'));
    await waitFor(() => expect(unitShown()).toBe('u1'));
    await settle();
    expect(labelCalls(fake)).toHaveLength(1);
    fireEvent.click(button('B is better'));
    await waitFor(() => expect(unitShown()).toBe('u2'));
    await settle();
    fireEvent.click(button('Tie'));
    await waitFor(() => expect(unitShown()).toBe('u3'));
    await settle();
    fireEvent.click(button('Skip'));
    await waitFor(() => expect(unitShown()).toBe('u4'));
    await settle();
    fireEvent.click(button('Next'));
    await waitFor(() => expect(unitShown()).toBe('u5'));
    fireEvent.click(button('Previous'));
    await waitFor(() => expect(unitShown()).toBe('u4'));
    expect(Object.fromEntries(labels)).toEqual({
      u0: { value: '1', skipped: false, comment: null },
      u1: { value: '2', skipped: false, comment: null },
      u2: { value: 'tie', skipped: false, comment: null },
      u3: { value: null, skipped: true, comment: null },
    });
    // Back on a rated item, its button is shown pressed.
    fireEvent.click(button('Previous'));
    fireEvent.click(button('Previous'));
    await waitFor(() => expect(unitShown()).toBe('u2'));
    expect(button('Tie').getAttribute('aria-pressed')).toBe('true');
    expect(button('A is better').getAttribute('aria-pressed')).toBe('false');
    expect(button('Tie').getAttribute('aria-keyshortcuts')).toBe('0');
    // No previous item before the first.
    fireEvent.click(button('Previous'));
    fireEvent.click(button('Previous'));
    await waitFor(() => expect(unitShown()).toBe('u0'));
    expect((button('Previous') as HTMLButtonElement).disabled).toBe(true);
  });

  it('offers a button for every score, named for screen readers, in 中文 too', async () => {
    const { labels } = storeApi({ kind: 'score', min: 1, max: 10 });
    await i18next.changeLanguage('zh');
    render(<AnnotateScreen setId={1} annotator="alice" onBack={() => {}} />);
    await waitFor(() => expect(unitShown()).toBe('u0'));
    const scores = screen.getByRole('group', { name: '评分' }).querySelectorAll('button');
    expect([...scores].map((b) => b.getAttribute('aria-label'))).toEqual(
      Array.from({ length: 10 }, (_, i) => `${i + 1} 分`),
    );
    // 10 is typed as 0.
    expect(screen.getByRole('button', { name: '10 分' }).getAttribute('aria-keyshortcuts')).toBe('0');
    fireEvent.click(screen.getByRole('button', { name: '7 分' }));
    await waitFor(() => expect(unitShown()).toBe('u1'));
    await settle();
    for (const name of ['上一条', '跳过', '下一条'])
      expect(screen.getByRole('button', { name })).toBeTruthy();
    expect(labels.get('u0')).toEqual({ value: '7', skipped: false, comment: null });
  });

  it('keeps a comment typed before the rating and stores it with the rating, by button or key', async () => {
    const { fake, labels } = storeApi({ kind: 'preference' });
    render(<AnnotateScreen setId={1} annotator="alice" onBack={() => {}} />);
    await waitFor(() => expect(unitShown()).toBe('u0'));
    const box = () => screen.getByTestId('annotate-comment') as HTMLTextAreaElement;

    // Typed, the box left (Esc) with nothing rated: nothing is sent, and the screen says it is kept.
    fireEvent.change(box(), { target: { value: 'Both miss the second question' } });
    fireEvent.blur(box());
    expect(labelCalls(fake)).toEqual([]);
    expect(screen.getByTestId('annotate-comment-help').textContent).toBe(
      'Kept: saved with your rating or skip of this item.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'B is better' }));
    await waitFor(() => expect(unitShown()).toBe('u1'));
    await settle();
    expect(labels.get('u0')).toEqual({
      value: '2',
      skipped: false,
      comment: 'Both miss the second question',
    });
    // The next item's box starts empty; back on the rated one, its stored comment is there.
    expect(box().value).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(unitShown()).toBe('u0'));
    expect(box().value).toBe('Both miss the second question');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(unitShown()).toBe('u1'));

    // Typed on u1, moved away and back without rating: still there, then rated by key.
    fireEvent.change(box(), { target: { value: 'A is longer, not better' } });
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(unitShown()).toBe('u2'));
    expect(box().value).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(unitShown()).toBe('u1'));
    expect(box().value).toBe('A is longer, not better');
    await press('0', 'u2');
    expect(labels.get('u1')).toEqual({ value: 'tie', skipped: false, comment: 'A is longer, not better' });

    // A skip carries the comment too.
    fireEvent.change(box(), { target: { value: 'Cannot judge: code' } });
    fireEvent.click(screen.getByRole('button', { name: 'Skip' }));
    await waitFor(() => expect(unitShown()).toBe('u3'));
    await settle();
    expect(labels.get('u2')).toEqual({ value: null, skipped: true, comment: 'Cannot judge: code' });
    // Every call the screen made was stored: none was refused for a comment without a label.
    expect(screen.getByTestId('annotate-state').textContent).toBe('Not rated yet');
  });

  it('stores a comment typed before a rating given by key (keyboard only)', async () => {
    const { labels } = storeApi({ kind: 'preference' });
    render(<AnnotateScreen setId={1} annotator="alice" onBack={() => {}} />);
    await waitFor(() => expect(unitShown()).toBe('u0'));
    const box = screen.getByTestId('annotate-comment');
    fireEvent.change(box, { target: { value: 'Both are off topic' } });
    fireEvent.keyDown(box, { key: 'Escape' });
    fireEvent.blur(box);
    await press('2', 'u1');
    expect(labels.get('u0')).toEqual({ value: '2', skipped: false, comment: 'Both are off topic' });
  });

  it('keeps an unrated comment across leaving the screen', async () => {
    const { labels } = storeApi({ kind: 'preference' });
    const first = render(<AnnotateScreen setId={1} annotator="alice" onBack={() => {}} />);
    await waitFor(() => expect(unitShown()).toBe('u0'));
    fireEvent.change(screen.getByTestId('annotate-comment'), { target: { value: 'Typo in B' } });
    first.unmount();
    render(<AnnotateScreen setId={1} annotator="alice" onBack={() => {}} />);
    await waitFor(() => expect(unitShown()).toBe('u0'));
    await waitFor(() =>
      expect((screen.getByTestId('annotate-comment') as HTMLTextAreaElement).value).toBe('Typo in B'),
    );
    fireEvent.click(screen.getByRole('button', { name: 'A is better' }));
    await waitFor(() => expect(labels.get('u0')?.comment).toBe('Typo in B'));
  });
});

describe('the buttons a scale gets', () => {
  it('one per value, each with the key that gives it, or none past the digits', () => {
    expect(ratingOptions({ kind: 'preference' })).toEqual([
      { value: '1', key: '1' },
      { value: '2', key: '2' },
      { value: 'tie', key: '0' },
    ]);
    expect(ratingOptions({ kind: 'label', labels: ['good', 'bad'] })).toEqual([
      { value: 'good', key: '1' },
      { value: 'bad', key: '2' },
    ]);
    // 0–10: the digit 0 gives 10, so 0 has a button and no key.
    const zeroToTen = ratingOptions({ kind: 'score', min: 0, max: 10 });
    expect(zeroToTen).toHaveLength(11);
    expect(zeroToTen[0]).toEqual({ value: 0, key: null });
    expect(zeroToTen[10]).toEqual({ value: 10, key: '0' });
  });
});

describe('a protocol task: translation equivalence', () => {
  const scale: RatingScale = {
    kind: 'label',
    labels: ['yes', 'no'],
    task: 'translation_equivalence',
    positive: 'no',
  };

  it('shows the source and the translation, asks the question and saves yes/no with buttons and keys, EN and 中文', async () => {
    const { labels } = storeApi(scale);
    render(<AnnotateScreen setId={1} annotator="alice" onBack={() => {}} />);
    await waitFor(() => expect(unitShown()).toBe('u0'));
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings).toEqual(expect.arrayContaining(['Source (English)', 'Translation']));
    expect(screen.getByTestId('annotate-question').textContent).toBe(
      'Does the translation say the same as the source (instruction and both responses)?',
    );
    // A right-to-left translation is laid out by its own text.
    expect(screen.getByText('Answer u0').getAttribute('dir')).toBe('auto');
    expect(screen.getByTestId('annotate-rate-yes').textContent).toBe('Yes, equivalent1');
    expect(screen.getByTestId('annotate-rate-no').textContent).toBe('No, not equivalent2');
    fireEvent.click(screen.getByTestId('annotate-rate-no'));
    await waitFor(() => expect(unitShown()).toBe('u1'));
    await press('1', 'u2');
    expect(labels.get('u0')?.value).toBe('no');
    expect(labels.get('u1')?.value).toBe('yes');
    cleanup();
    await act(() => i18next.changeLanguage('zh'));
    render(<AnnotateScreen setId={1} annotator="alice" onBack={() => {}} />);
    await waitFor(() =>
      expect(screen.getByTestId('annotate-question').textContent).toBe(
        '译文与原文（指令和两个回答）意思相同吗？',
      ),
    );
    expect(screen.getByTestId('annotate-rate-yes').textContent).toBe('是，等价1');
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(
      expect.arrayContaining(['原文（英文）', '译文']),
    );
  });
});

describe('The list of sets after rating (issue 38)', () => {
  it('shows the counts the store holds when the rater goes back, not the ones read before', async () => {
    storeApi(undefined, (tally) => ({
      'annotation.annotators': () => [],
      'annotation.listSets': () => [
        {
          id: 1,
          uid: 'set-1',
          name: 'Pilot set',
          experimentId: 3,
          scale: { kind: 'score', min: 1, max: 5 },
          seed: 1,
          itemCount: N,
          strata: [],
          progress: tally().labelled + tally().skipped ? [tally()] : [],
          guidelinesVersion: null,
          adjudicated: 0,
          createdAt: '2026-01-01T00:00:00.000Z',
        },
      ],
    }));
    function Page() {
      const [query, setQuery] = useState<Record<string, string>>({});
      return <AnnotationPage experimentId={3} query={query} onQuery={setQuery} />;
    }
    render(<Page />);
    const card = await screen.findByTestId('annotation-set-1');
    // The set's views, each a button with its own words; nothing adjudicated and no guidelines yet.
    expect(
      ['open-agreement', 'open-adjudication', 'open-guidelines'].map(
        (id) => within(card).getByTestId(id).textContent,
      ),
    ).toEqual(['Agreement', 'Disagreements', 'Guidelines']);
    fireEvent.change(within(card).getByTestId('annotator-name'), { target: { value: 'alice' } });
    fireEvent.click(within(card).getByTestId('annotate-start'));
    await waitFor(() => expect(unitShown()).toBe('u0'));
    await press('3', 'u1');
    await press('4', 'u2');
    fireEvent.click(screen.getByRole('button', { name: 'Back to the sets' }));
    await waitFor(() =>
      expect(
        within(screen.getByTestId('annotation-set-1')).queryByText('alice: 2 rated, 0 skipped of 6'),
      ).not.toBeNull(),
    );
  });
});
