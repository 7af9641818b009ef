// Issue 20 item 5: a rating key saves and moves on, so `1` then `n` skips an item. The screen's
// count and its end-of-set message must be the store's tally (what `annotate sets` prints), not
// "the cursor passed the last item". The fake stands in for the transport and keeps the labels
// the way the core does (one stored row per label, the tally counted from the rows).
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnnotatorProgress, SessionItem } from '../../../shared/annotation/api-types';
import { setApi } from '../api';
import { i18next } from '../i18n';
import { FakeApi } from '../test/fake-api';
import { AnnotateScreen } from './AnnotateScreen';

afterEach(async () => {
  cleanup();
  setApi(null);
  await i18next.changeLanguage('en');
});

const N = 6;
const UNITS = Array.from({ length: N }, (_, i) => `u${i}`);

function storeApi() {
  const labels = new Map<string, { value: string | null; skipped: boolean }>();
  const tally = (): AnnotatorProgress => ({
    annotator: 'alice',
    labelled: [...labels.values()].filter((l) => !l.skipped).length,
    skipped: [...labels.values()].filter((l) => l.skipped).length,
    total: N,
  });
  const fake = new FakeApi({
    'annotation.session': () => ({
      set: {
        id: 1,
        name: 'set',
        scale: { kind: 'score', min: 1, max: 5 },
        progress: labels.size ? [tally()] : [],
      },
      annotator: 'alice',
      items: UNITS.map((u): SessionItem => ({
        unitUid: u,
        view: { prompt: `Prompt ${u}`, context: null, responses: [`Answer ${u}`] },
        value: (labels.get(u)?.value as SessionItem['value']) ?? null,
        skipped: labels.get(u)?.skipped ?? false,
        comment: null,
      })),
      resumeAt: 0,
    }),
    'annotation.label': (p) => {
      labels.set(p.unitUid, { value: p.skip ? null : String(p.value), skipped: p.skip === true });
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
