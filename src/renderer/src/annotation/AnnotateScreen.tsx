// The blinded annotation screen: one unit at a time, in this annotator's own order. Every key has
// a button too (digits rate and move on, n/p move without rating, s skips, c opens the comment),
// so a trackpad or touch screen rates as fast as a keyboard. A label counts as given only when the
// core has stored it (one call = one committed row), and the counts and the end-of-set message come
// from the store's own tally (what `annotate sets` prints), never from where the cursor is; model
// text is shown as text. A comment typed before the rating is kept (in this browser, per unit)
// and stored with the rating or skip: the store keeps no comment without one (issue 38).
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnnotationSession, AnnotatorProgress, SessionItem } from '../../../shared/annotation/api-types';
import type { RatingScale, RatingValue } from '../../../shared/annotation/types';
import { getApi } from '../api';
import { ScrollBox } from '../components/ScrollRegion';
import { GuidelinesPanel } from './GuidelinesPanel';
import './i18n';
import { Button } from '../components/Button';

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

/** Every value of the scale with the key that gives it (none for values past the digits). */
export function ratingOptions(scale: RatingScale): { value: RatingValue; key: string | null }[] {
  const values: RatingValue[] =
    scale.kind === 'preference'
      ? ['1', '2', 'tie']
      : scale.kind === 'label'
        ? scale.labels
        : Array.from({ length: Math.max(0, scale.max - scale.min + 1) }, (_, i) => scale.min + i);
  const keys = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0'];
  return values.map((value) => ({ value, key: keys.find((k) => valueForKey(scale, k) === value) ?? null }));
}

/** Where the comments typed before a rating wait: this browser's storage, per set and annotator. */
function draftsKey(setId: number, annotator: string): string {
  return `judge-lab.comment-drafts.${setId}.${annotator}`;
}

function readDrafts(setId: number, annotator: string): Map<string, string> {
  try {
    const raw = JSON.parse(localStorage.getItem(draftsKey(setId, annotator)) ?? '{}') as unknown;
    if (raw && typeof raw === 'object')
      return new Map(Object.entries(raw).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    // A damaged entry loses its drafts, not the screen.
  }
  return new Map();
}

function writeDrafts(setId: number, annotator: string, drafts: Map<string, string>): void {
  if (drafts.size === 0) localStorage.removeItem(draftsKey(setId, annotator));
  else localStorage.setItem(draftsKey(setId, annotator), JSON.stringify(Object.fromEntries(drafts)));
}

function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))
  );
}

/**
 * A navigation button with its keyboard shortcut shown beside the label (screen readers get it
 * from aria-keyshortcuts); `ratingControl` marks a button that saves the comment itself, so
 * leaving the comment box for it does not save the comment a second time.
 */
function KeyButton({
  label,
  shortcut,
  testId,
  ratingControl = false,
  disabled,
  onClick,
}: {
  label: string;
  shortcut: string;
  testId: string;
  ratingControl?: boolean;
  disabled: boolean;
  onClick: () => void;
}) {
  return (
    <Button
      className="btn"
      testId={testId}
      data-rating-control={ratingControl ? '' : undefined}
      aria-keyshortcuts={shortcut}
      disabled={disabled}
      onClick={onClick}
    >
      {label}
      <kbd className="annotate__key" aria-hidden="true">
        {shortcut}
      </kbd>
    </Button>
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
  // What was typed in the box, and on which unit: the box shows it only on that unit, so no
  // frame shows one unit's comment under another (an effect resetting it came a paint late).
  const [typed, setTyped] = useState<{ unit: string; text: string } | null>(null);
  // Comments typed on units not rated yet, by unit: they wait here for the rating or skip.
  const drafts = useMemo(() => readDrafts(setId, annotator), [setId, annotator]);
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
  const comment = !item
    ? ''
    : typed?.unit === item.unitUid
      ? typed.text
      : (drafts.get(item.unitUid) ?? item.comment ?? '');

  const changeComment = (text: string) => {
    if (!item) return;
    setTyped({ unit: item.unitUid, text });
    if (text.trim() === (item.comment ?? '').trim()) drafts.delete(item.unitUid);
    else drafts.set(item.unitUid, text);
    writeDrafts(setId, annotator, drafts);
  };
  // The comment on screen goes with any label given now, when it differs from the stored one.
  const commentPatch = (): { comment?: string | null } =>
    item && comment.trim() !== (item.comment ?? '').trim() ? { comment: comment.trim() || null } : {};

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
        if (patch.comment !== undefined && drafts.delete(item.unitUid)) writeDrafts(setId, annotator, drafts);
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
    [session, item, setId, annotator, items.length, drafts],
  );

  // What a key or its button does; one label at a time: while the last one is being stored,
  // neither is taken (the buttons stay enabled, so a focused one keeps the focus).
  const rate = (value: RatingValue) => {
    if (saving.current || !item) return;
    void save({ value, ...commentPatch() }, true);
  };
  const skip = () => {
    if (saving.current || !item) return;
    void save({ skip: true, ...commentPatch() }, true);
  };
  const next = () => setIndex((i) => Math.min(i + 1, items.length));
  const previous = () => setIndex((i) => Math.max(i - 1, 0));

  // A layout effect: the listener that knows the new item is in place in the same task as the
  // render that shows it, so no key can reach a listener still holding the previous item.
  const actions = useRef({ rate, skip, next, previous });
  useLayoutEffect(() => {
    actions.current = { rate, skip, next, previous };
  });
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!session || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      if (saving.current) return;
      const value = valueForKey(session.set.scale, e.key);
      if (value !== null && item) {
        e.preventDefault();
        actions.current.rate(value);
      } else if (e.key === 'n') {
        actions.current.next();
      } else if (e.key === 'p') {
        actions.current.previous();
      } else if (e.key === 's' && item) {
        actions.current.skip();
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
  // A protocol's own task (e.g. translation equivalence) names its texts and answers in its words.
  const task = scale.kind === 'label' ? scale.task : undefined;
  const shown = (v: RatingValue) =>
    v === 'tie'
      ? t('screen.tie')
      : scale.kind === 'preference'
        ? v === '1'
          ? 'A'
          : 'B'
        : task
          ? t(`tasks.${task}.${String(v)}`, { defaultValue: String(v) })
          : String(v);
  // The button's name for a screen reader: what the value means, starting with what it shows.
  const optionName = (v: RatingValue) =>
    scale.kind === 'preference'
      ? v === 'tie'
        ? t('screen.rateTie')
        : t('screen.rateBetter', { side: shown(v) })
      : scale.kind === 'score'
        ? t('screen.rateScore', { value: v })
        : String(v);
  const keysHelp =
    scale.kind === 'score'
      ? t('screen.keysScore', { min: scale.min, max: scale.max })
      : scale.kind === 'preference'
        ? t('screen.keysPreference')
        : t('screen.keysLabel', { first: shown(scale.labels[0]), second: shown(scale.labels[1]) });

  // Previous, skip and next: beside the rating buttons, and alone past the last item.
  const navButtons = (
    <div className="annotate__nav" role="group" aria-label={t('screen.navGroup')}>
      <KeyButton
        label={t('screen.previous')}
        shortcut="p"
        testId="annotate-previous"
        disabled={index === 0}
        onClick={previous}
      />
      <KeyButton
        label={t('screen.skip')}
        shortcut="s"
        testId="annotate-skip"
        ratingControl
        disabled={!item}
        onClick={skip}
      />
      <KeyButton
        label={t('screen.next')}
        shortcut="n"
        testId="annotate-next"
        disabled={index >= items.length}
        onClick={next}
      />
    </div>
  );

  return (
    <div className="annotate" data-testid="annotate-screen">
      <div className="annotate__bar">
        <Button className="btn btn--ghost" onClick={onBack}>
          {t('screen.back')}
        </Button>
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
            <h2 className="annotate__label">{task ? t(`tasks.${task}.source`) : t('screen.prompt')}</h2>
            <ScrollBox
              label={task ? t(`tasks.${task}.source`) : t('screen.prompt')}
              className="annotate__text"
            >
              {item.view.prompt}
            </ScrollBox>
          </section>
          {item.view.context && (
            <section>
              <h2 className="annotate__label">{t('screen.context')}</h2>
              <ScrollBox label={t('screen.context')} className="annotate__text annotate__text--context">
                {item.view.context}
              </ScrollBox>
            </section>
          )}
          <div className={item.view.responses.length > 1 ? 'annotate__pair' : undefined}>
            {item.view.responses.map((r, i) => {
              const name = task
                ? t(`tasks.${task}.translation`)
                : item.view.responses.length > 1
                  ? t(i === 0 ? 'screen.responseA' : 'screen.responseB')
                  : t('screen.response');
              return (
                <section key={i}>
                  <h2 className="annotate__label">{name}</h2>
                  {/* A translation may be right to left (Arabic): the text says which. */}
                  <ScrollBox label={name} className="annotate__text" dir="auto">
                    {r}
                  </ScrollBox>
                </section>
              );
            })}
          </div>
          {task && (
            <p className="annotate__question" data-testid="annotate-question">
              {t(`tasks.${task}.question`)}
            </p>
          )}
          <div className="annotate__controls">
            <div
              className="annotate__rate"
              role="group"
              aria-label={t('screen.rateGroup')}
              data-testid="annotate-rate"
            >
              {ratingOptions(scale).map((o) => (
                <Button
                  key={String(o.value)}
                  className={`btn annotate__rate-btn${item.value === o.value ? ' btn--primary' : ''}`}
                  testId={`annotate-rate-${String(o.value)}`}
                  data-rating-control=""
                  aria-pressed={item.value === o.value}
                  aria-label={scale.kind === 'score' ? optionName(o.value) : undefined}
                  aria-keyshortcuts={o.key ?? undefined}
                  onClick={() => rate(o.value)}
                >
                  {scale.kind === 'preference' ? optionName(o.value) : shown(o.value)}
                  {o.key !== null && (
                    <kbd className="annotate__key" aria-hidden="true">
                      {o.key}
                    </kbd>
                  )}
                </Button>
              ))}
            </div>
            {navButtons}
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
              aria-keyshortcuts="c"
              onChange={(e) => changeComment(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Escape') (e.target as HTMLTextAreaElement).blur();
              }}
              onBlur={(e) => {
                // A rating or skip clicked from the box carries the comment itself.
                const to = e.relatedTarget;
                if (to instanceof HTMLElement && to.closest('[data-rating-control]')) return;
                if (commentPatch().comment !== undefined && (item.value !== null || item.skipped))
                  void save(commentPatch(), false);
              }}
            />
            <span className="small muted" data-testid="annotate-comment-help">
              {commentPatch().comment !== undefined && item.value === null && !item.skipped
                ? t('screen.commentKept')
                : t('screen.commentHelp')}
            </span>
          </label>
        </article>
      ) : open > 0 ? (
        <div className="annotate__done" data-testid="annotate-not-done" data-open={open}>
          <p>{t('screen.notDone', { count: open })}</p>
          {firstOpen >= 0 && (
            <Button
              className="btn btn--primary"
              testId="annotate-first-unrated"
              onClick={() => setIndex(firstOpen)}
            >
              {t('screen.firstUnrated')}
            </Button>
          )}
        </div>
      ) : (
        <p className="annotate__done" data-testid="annotate-done">
          {stored.skipped > 0
            ? t('screen.doneWithSkips', { labelled: stored.labelled, skipped: stored.skipped })
            : t('screen.done', { total })}
        </p>
      )}
      {!item && navButtons}
    </div>
  );
}
