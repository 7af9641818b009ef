// Where disagreements between annotators are settled: each item people labelled differently, its
// text and the labels side by side (with the guidelines version each was made under), and the
// adjudicated label, stored apart from the labels with who gave it and when. Model text is text.
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../lib/useFormat';
import { scaleCategories } from '../../../shared/annotation/agreement';
import type { Disagreement } from '../../../shared/annotation/api-types';
import type { RatingScale, RatingValue } from '../../../shared/annotation/types';
import { getApi } from '../api';
import { ScrollBox } from '../components/ScrollRegion';
import './adjudication-i18n';
import { Button } from '../components/Button';

const ADJUDICATOR_KEY = 'judge-lab.adjudicator';

export function AdjudicationView({ setId, scale }: { setId: number; scale: RatingScale }) {
  const { t } = useTranslation('annotation');
  const f = useFormat();
  const [items, setItems] = useState<Disagreement[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [who, setWho] = useState(() => localStorage.getItem(ADJUDICATOR_KEY) ?? '');
  const [notes, setNotes] = useState<Record<string, string>>({});
  useEffect(() => {
    void getApi()
      .call('annotation.disagreements', { setId })
      .then(setItems, (e: Error) => setError(e.message));
  }, [setId]);
  const shown = useCallback(
    (v: RatingValue) =>
      scale.kind === 'preference' ? (v === '1' ? 'A' : v === '2' ? 'B' : t('adjudicate.tie')) : String(v),
    [scale.kind, t],
  );
  const settle = async (unitUid: string, value: RatingValue | null) => {
    const name = who.trim();
    if (!name) {
      setError(t('adjudicate.needName'));
      return;
    }
    localStorage.setItem(ADJUDICATOR_KEY, name);
    try {
      setItems(
        await getApi().call('annotation.adjudicate', {
          setId,
          unitUid,
          value,
          adjudicator: name,
          note: notes[unitUid]?.trim() || null,
        }),
      );
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const settled = items?.filter((d) => d.adjudication).length ?? 0;
  return (
    <section className="adjudication" data-testid="adjudication-view">
      <p className="page__intro">{t('adjudicate.intro')}</p>
      <div className="adjudication__bar">
        <label>
          {t('adjudicate.adjudicator')}{' '}
          <input value={who} data-testid="adjudicator-name" onChange={(e) => setWho(e.target.value)} />
        </label>
        {items && (
          <span className="muted small" data-testid="adjudication-count">
            {t('adjudicate.count', { open: items.length - settled, settled })}
          </span>
        )}
      </div>
      {error && (
        <p className="text-danger" role="alert">
          {error}
        </p>
      )}
      {items?.length === 0 && <p className="muted">{t('adjudicate.none')}</p>}
      {items?.map((d) => (
        <article
          key={d.unitUid}
          className="adjudication__item"
          data-testid="disagreement"
          data-unit={d.unitUid}
          data-settled={d.adjudication ? String(d.adjudication.value) : ''}
        >
          <ScrollBox label={t('screen.prompt')} className="annotate__text">
            {d.view.prompt}
          </ScrollBox>
          {d.view.context && (
            <ScrollBox label={t('screen.context')} className="annotate__text annotate__text--context">
              {d.view.context}
            </ScrollBox>
          )}
          <div className={d.view.responses.length > 1 ? 'annotate__pair' : undefined}>
            {d.view.responses.map((r, i) => (
              <section key={i}>
                <h3 className="annotate__label">
                  {d.view.responses.length > 1 ? (i === 0 ? 'A' : 'B') : t('screen.response')}
                </h3>
                <ScrollBox
                  label={
                    d.view.responses.length > 1
                      ? t(i === 0 ? 'screen.responseA' : 'screen.responseB')
                      : t('screen.response')
                  }
                  className="annotate__text"
                >
                  {r}
                </ScrollBox>
              </section>
            ))}
          </div>
          <table className="results-table adjudication__labels">
            <thead>
              <tr>
                <th>{t('adjudicate.annotator')}</th>
                {/* Headed as their cells are aligned: numbers and short labels to the right. */}
                <th className="num">{t('adjudicate.value')}</th>
                <th className="num">{t('adjudicate.version')}</th>
                <th>{t('adjudicate.comment')}</th>
              </tr>
            </thead>
            <tbody>
              {d.labels.map((l) => (
                <tr key={l.annotator}>
                  <td>{l.annotator}</td>
                  <td className="num">{shown(l.value)}</td>
                  <td className="num">{l.guidelinesVersion ?? t('adjudicate.versionNone')}</td>
                  <td>{l.comment ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="small muted">
            {d.majority === null
              ? t('adjudicate.majorityTied')
              : t('adjudicate.majority', { value: shown(d.majority) })}
          </p>
          {d.adjudication && (
            <p className="small" data-testid="adjudicated">
              {t('adjudicate.settledBy', {
                value: shown(d.adjudication.value),
                who: d.adjudication.adjudicator,
                when: f.dateTime(d.adjudication.createdAt),
              })}
              {d.adjudication.note && ` — ${d.adjudication.note}`}
            </p>
          )}
          <div className="adjudication__settle">
            <span>{t('adjudicate.settle')}</span>
            {scaleCategories(scale).map((v) => (
              <Button
                key={String(v)}
                className={`btn${d.adjudication?.value === v ? ' btn--primary' : ''}`}
                testId={`settle-${String(v)}`}
                aria-pressed={d.adjudication?.value === v}
                onClick={() => void settle(d.unitUid, v)}
              >
                {shown(v)}
              </Button>
            ))}
            <input
              placeholder={t('adjudicate.note')}
              aria-label={t('adjudicate.note')}
              value={notes[d.unitUid] ?? ''}
              onChange={(e) => setNotes({ ...notes, [d.unitUid]: e.target.value })}
            />
            {d.adjudication && (
              <Button className="btn btn--ghost" onClick={() => void settle(d.unitUid, null)}>
                {t('adjudicate.withdraw')}
              </Button>
            )}
          </div>
        </article>
      ))}
    </section>
  );
}
