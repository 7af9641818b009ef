// The blinded annotation screen: one unit at a time, in this annotator's own order, keyboard
// first (digits rate and move on, n/p move without rating, s skips, c opens the comment). A label
// counts as given only when the core has stored it (one call = one committed row), and the counts
// and the end-of-set message come from the store's own tally (what `annotate sets` prints), never
// from where the cursor is; model text is shown as text.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnnotationSession, AnnotatorProgress, SessionItem } from '../../../shared/annotation/api-types';
import type { RatingScale, RatingValue } from '../../../shared/annotation/types';
import { getApi } from '../api';
import { GuidelinesPanel } from './GuidelinesPanel';
import './i18n';

/** The value a key gives on this scale, or null. */
export function valueForKey(scale: RatingScale, key: string): RatingValue | null {
  if (!/^[0-9]$/.test(key)) return null;
  const d = Number(key);
  if (scale.kind === 'preference') return d === 1 ? '1' : d === 2 ? '2' : d === 0 ? 'tie' : null;
  if (scale.kind === 'label') return d >= 1 && d <= scale.labels.length ? scale.labels[d - 1] : null;
  // 0 stands for 10 on a 1–10 scale.
  const v = d === 0 && scale.max >= 10 ? 10 : d;
  return v >= scale.min && v <= scale.max ? v : null;
}

function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))
  );
}

export function AnnotateScreen({
  setId,
  annotator,
  onBack,
}: {
  setId: number;
  annotator: string;
  onBack: () => void;
}) {
  const { t } = useTranslation('annotation');
  const [session, setSession] = useState<AnnotationSession | null>(null);
  // The store's count of this annotator's labels: from the session, then from each save's answer.
  const [stored, setStored] = useState<AnnotatorProgress | null>(null);
  const [index, setIndex] = useState(0);
  const [status, setStatus] = useState<{ kind: 'idle' | 'saving' | 'error'; message?: string }>({
    kind: 'idle',
  });
  const [comment, setComment] = useState('');
  const commentRef = useRef<HTMLTextAreaElement>(null);
  const saving = useRef(false);

  useEffect(() => {
    let live = true;
    void getApi()
      .call('annotation.session', { setId, annotator })
      .then(
        (s) => {
          if (!live) return;
          setSession(s);
          setStored(
            s.set.progress.find((p) => p.annotator === s.annotator) ?? {
              annotator: s.annotator,
              labelled: 0,
              skipped: 0,
              total: s.items.length,
            },
          );
          setIndex(Math.min(s.resumeAt, Math.max(0, s.items.length - 1)));
          if (s.resumeAt >= s.items.length) setIndex(s.items.length);
        },
        (e: Error) => live && setStatus({ kind: 'error', message: e.message }),
      );
    return () => {
      live = false;
    };
  }, [setId, annotator]);

  const items = session?.items ?? [];
  const item: SessionItem | undefined = items[index];
  useEffect(() => setComment(item?.comment ?? ''), [item?.unitUid, item?.comment]);

  const save = useCallback(
    async (patch: { value?: RatingValue; skip?: boolean; comment?: string | null }, advance: boolean) => {
      if (!session || !item) return;
      saving.current = true;
      setStatus({ kind: 'saving' });
      try {
        const tally = await getApi().call('annotation.label', {
          setId,
          annotator,
          unitUid: item.unitUid,
          ...patch,
        });
        setStored(tally);
        const updated: SessionItem = {
          ...item,
          ...(patch.value !== undefined ? { value: patch.value, skipped: false } : {}),
          ...(patch.skip ? { skipped: true, value: null } : {}),
          ...(patch.comment !== undefined ? { comment: patch.comment } : {}),
        };
        setSession((s) =>
          s ? { ...s, items: s.items.map((x) => (x.unitUid === item.unitUid ? updated : x)) } : s,
        );
        setStatus({ kind: 'idle' });
        if (advance) setIndex((i) => Math.min(i + 1, items.length));
      } catch (e) {
        setStatus({ kind: 'error', message: (e as Error).message });
      } finally {
        saving.current = false;
      }
    },
    [session, item, setId, annotator, items.length],
  );

  // A layout effect: the listener that knows the new item is in place in the same task as the
  // render that shows it, so no key can reach a listener still holding the previous item.
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!session || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      // One label at a time: a key pressed while the last one is being stored is not taken.
      if (saving.current) return;
      const value = valueForKey(session.set.scale, e.key);
      if (value !== null && item) {
        e.preventDefault();
        void save({ value }, true);
      } else if (e.key === 'n') {
        setIndex((i) => Math.min(i + 1, items.length));
      } else if (e.key === 'p') {
        setIndex((i) => Math.max(i - 1, 0));
      } else if (e.key === 's' && item) {
        void save({ skip: true }, true);
      } else if (e.key === 'c' && item) {
        e.preventDefault();
        commentRef.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [session, item, items.length, save]);

  if (!session || !stored) {
    return <p className="muted">{status.kind === 'error' ? status.message : t('loading')}</p>;
  }
  const scale = session.set.scale;
  const done = stored.labelled;
  const total = stored.total;
  const open = total - stored.labelled - stored.skipped;
  const firstOpen = items.findIndex((i) => i.value === null && !i.skipped);
  const shown = (v: RatingValue) =>
    v === 'tie' ? t('screen.tie') : scale.kind === 'preference' ? (v === '1' ? 'A' : 'B') : String(v);
  const keysHelp =
    scale.kind === 'score'
      ? t('screen.keysScore', { min: scale.min, max: scale.max })
      : scale.kind === 'preference'
        ? t('screen.keysPreference')
        : t('screen.keysLabel', { first: scale.labels[0], second: scale.labels[1] });

  return (
    <div className="annotate" data-testid="annotate-screen">
      <div className="annotate__bar">
        <button type="button" className="btn btn--ghost" onClick={onBack}>
          {t('screen.back')}
        </button>
        <span className="annotate__who">
          {t('annotator')}: <strong>{session.annotator}</strong>
        </span>
        <progress
          max={Math.max(1, total)}
          value={done + stored.skipped}
          aria-label={t('progress', { done, total })}
        />
        <span
          className="num"
          data-testid="annotate-progress"
          data-done={done}
          data-skipped={stored.skipped}
          data-total={total}
        >
          {t('progress', { done, total })}
          {stored.skipped > 0 && ` · ${t('progressSkipped', { count: stored.skipped })}`}
        </span>
      </div>
      <p className="small muted annotate__keys">
        {t('screen.keys')}: {keysHelp} · {t('screen.keysNav')}
      </p>
      <GuidelinesPanel guidelines={session.guidelines ?? null} />
      {item ? (
        <article
          className="annotate__item"
          data-testid="annotate-item"
          data-unit={item.unitUid}
          data-index={index}
        >
          <p className="small muted">{t('screen.of', { n: index + 1, total: items.length })}</p>
          <section>
            <h2 className="annotate__label">{t('screen.prompt')}</h2>
            <pre className="annotate__text">{item.view.prompt}</pre>
          </section>
          {item.view.context && (
            <section>
              <h2 className="annotate__label">{t('screen.context')}</h2>
              <pre className="annotate__text annotate__text--context">{item.view.context}</pre>
            </section>
          )}
          <div className={item.view.responses.length > 1 ? 'annotate__pair' : undefined}>
            {item.view.responses.map((r, i) => (
              <section key={i}>
                <h2 className="annotate__label">
                  {item.view.responses.length > 1
                    ? t(i === 0 ? 'screen.responseA' : 'screen.responseB')
                    : t('screen.response')}
                </h2>
                <pre className="annotate__text">{r}</pre>
              </section>
            ))}
          </div>
          <p
            className="annotate__state"
            data-testid="annotate-state"
            data-value={item.value ?? ''}
            data-skipped={item.skipped ? '1' : '0'}
          >
            {status.kind === 'saving'
              ? t('screen.saving')
              : status.kind === 'error'
                ? t('screen.saveFailed', { message: status.message })
                : item.skipped
                  ? t('screen.skipped')
                  : item.value !== null
                    ? t('screen.saved', { value: shown(item.value) })
                    : t('screen.notRated')}
          </p>
          <label className="annotate__comment">
            <span>{t('screen.comment')}</span>
            <textarea
              ref={commentRef}
              rows={2}
              value={comment}
              data-testid="annotate-comment"
              onChange={(e) => setComment(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Escape') (e.target as HTMLTextAreaElement).blur();
              }}
              onBlur={() => {
                if (comment !== (item.comment ?? '') && (item.value !== null || item.skipped))
                  void save({ comment }, false);
              }}
            />
            <span className="small muted">{t('screen.commentHelp')}</span>
          </label>
        </article>
      ) : open > 0 ? (
        <div className="annotate__done" data-testid="annotate-not-done" data-open={open}>
          <p>{t('screen.notDone', { count: open })}</p>
          {firstOpen >= 0 && (
            <button
              type="button"
              className="btn btn--primary"
              data-testid="annotate-first-unrated"
              onClick={() => setIndex(firstOpen)}
            >
              {t('screen.firstUnrated')}
            </button>
          )}
        </div>
      ) : (
        <p className="annotate__done" data-testid="annotate-done">
          {stored.skipped > 0
            ? t('screen.doneWithSkips', { labelled: stored.labelled, skipped: stored.skipped })
            : t('screen.done', { total })}
        </p>
      )}
    </div>
  );
}
