import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  readRepeatsView,
  REPEATS_VIEW,
  type QuestionView,
  type RepeatsViewResult,
} from '../../../../shared/protocols/self-consistency/views';
import { type ApiError, ErrorPanel, type ProtocolPageProps, ReasonDiff, toApiError, useApi } from '../host';
import { SC_NAMESPACES } from './i18n';
import { apiQuery, rowKey, SC_UNSTABLE_PAGE, withFilter } from './query';
import './self-consistency.css';

function useRepeats(experimentId: number, query: Record<string, string>) {
  const wanted = JSON.stringify(apiQuery(query));
  const [state, setState] = useState<{
    data: RepeatsViewResult | null;
    error: ApiError | null;
    loading: boolean;
  }>({
    data: null,
    error: null,
    loading: true,
  });
  const api = useApi();
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    api
      .call('experiments.protocolView', {
        experimentId,
        view: REPEATS_VIEW,
        query: JSON.parse(wanted) as Record<string, unknown>,
      })
      .then((data) => live && setState({ data: readRepeatsView(data), error: null, loading: false }))
      .catch((err) => live && setState((s) => ({ ...s, error: toApiError(err), loading: false })));
    return () => {
      live = false;
    };
  }, [experimentId, wanted, api]);
  return state;
}

/**
 * Self-consistency's unstable-items browser: the questions whose repeats disagree (or all of
 * them), filtered by judge, temperature and category; one question opened shows its texts, every
 * repeat's verdict and reason side by side, and the word diff of each dissenting reason.
 */
export function UnstablePage({ experimentId, query, onNavigate }: ProtocolPageProps) {
  const { t } = useTranslation(SC_NAMESPACES);
  const { data, error, loading } = useRepeats(experimentId, query);
  const go = (q: Record<string, string>) =>
    onNavigate({ name: 'experiment-page', experimentId, page: SC_UNSTABLE_PAGE, query: q });
  const setFilter = (key: string, value: string) => go(withFilter(query, key, value));
  const rows = data?.rows ?? [];
  const opened = useMemo(() => rows.find((r) => rowKey(r) === query.open) ?? null, [rows, query.open]);
  const condition = (c: string) => (c === 'own' ? t('unstable.own') : c);

  const select = (name: string, label: string, options: { value: string; label: string }[]) => (
    <label className="field field--inline">
      <span className="field__label">{label}</span>
      <select
        data-testid={`sc-filter-${name}`}
        value={query[name] ?? ''}
        onChange={(e) => setFilter(name, e.target.value)}
      >
        <option value="">{t('unstable.any')}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <div className="page flips-page" data-testid="sc-unstable-page" aria-busy={loading}>
      <header className="page__header">
        <div>
          <h1 className="page__title">{t('unstable.title')}</h1>
          <p className="page__intro">{t('unstable.intro')}</p>
        </div>
        <div className="page__tools">
          <button
            type="button"
            className="btn btn--ghost"
            onClick={() => onNavigate({ name: 'results', experimentId, excludeFlagged: false })}
          >
            ← {t('unstable.toResults')}
          </button>
        </div>
      </header>
      {error && <ErrorPanel title={t('unstable.loadFailed')} error={error} />}
      {opened ? (
        <QuestionDetail
          row={opened}
          mode={data!.mode}
          condition={condition}
          onBack={() => go(withFilter(query, 'open', ''))}
        />
      ) : (
        <>
          <div className="sc-filters" role="group">
            {select(
              'judge',
              t('unstable.judge'),
              (data?.judges ?? []).map((j) => ({ value: j, label: j })),
            )}
            {select(
              'condition',
              t('unstable.condition'),
              (data?.conditions ?? []).map((c) => ({ value: c, label: condition(c) })),
            )}
            {select(
              'category',
              t('unstable.category'),
              (data?.categories ?? []).map((c) => ({ value: c, label: c })),
            )}
            <label className="checkbox">
              <input
                type="checkbox"
                data-testid="sc-filter-all"
                checked={query.all === '1'}
                onChange={(e) => setFilter('all', e.target.checked ? '1' : '')}
              />{' '}
              {t('unstable.all')}
            </label>
          </div>
          <p className="hint" data-testid="sc-unstable-count" role="status">
            {data ? t('unstable.count', { shown: rows.length, total: data.total }) : t('unstable.loading')}
          </p>
          {data && rows.length === 0 && <p className="hint">{t('unstable.none')}</p>}
          <QuestionRows
            rows={rows}
            condition={condition}
            label={t('unstable.title')}
            onOpen={(r) => go({ ...query, open: rowKey(r) })}
          />
        </>
      )}
    </div>
  );
}

const ROW_HEIGHT = 40;

/** Only the visible rows are in the DOM: a large study has thousands of questions. */
function QuestionRows({
  rows,
  condition,
  label,
  onOpen,
}: {
  rows: QuestionView[];
  condition: (c: string) => string;
  label: string;
  onOpen: (r: QuestionView) => void;
}) {
  const { t } = useTranslation(SC_NAMESPACES);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 6,
    initialRect: { width: 1000, height: 600 },
  });
  return (
    <div className="flip-table sc-table" role="table" aria-label={label} aria-rowcount={rows.length + 1}>
      <div className="flip-table__row flip-table__row--head" role="row">
        <span role="columnheader">{t('unstable.col.item')}</span>
        <span role="columnheader">{t('unstable.col.judge')}</span>
        <span role="columnheader">{t('unstable.col.condition')}</span>
        <span role="columnheader">{t('unstable.col.order')}</span>
        <span role="columnheader">{t('unstable.col.verdicts')}</span>
      </div>
      <div
        ref={scrollRef}
        className="flip-table__body"
        role="rowgroup"
        tabIndex={0}
        data-testid="sc-unstable-list"
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            const r = rows[v.index];
            return (
              <div
                key={rowKey(r)}
                role="row"
                data-testid="sc-unstable-row"
                className="flip-table__row"
                style={{ height: v.size, transform: `translateY(${v.start}px)` }}
                onClick={() => onOpen(r)}
              >
                <span role="cell" className="mono ellipsis" title={r.itemId}>
                  {r.itemId}
                </span>
                <span role="cell" className="ellipsis">
                  {r.judge}
                </span>
                <span role="cell">{condition(r.condition)}</span>
                <span role="cell">{t(`unstable.order.${r.order}`)}</span>
                <span role="cell" className="mono nowrap">
                  {r.repeats.map((x) => (x.status === 'ok' ? x.verdict : '×')).join(' ')}
                </span>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

// Model and dataset texts are React text children, never HTML; each is its own bidi isolate.
function Text({ text, testId }: { text: string; testId?: string }) {
  return (
    <div className="text text-block" dir="auto" data-testid={testId}>
      {text}
    </div>
  );
}

function QuestionDetail({
  row,
  mode,
  condition,
  onBack,
}: {
  row: QuestionView;
  mode: 'pairwise' | 'pointwise';
  condition: (c: string) => string;
  onBack: () => void;
}) {
  const { t } = useTranslation(SC_NAMESPACES);
  const first = row.repeats[0];
  const dissent = row.repeats.filter(
    (x) => x.sample > 0 && x.status === 'ok' && first.status === 'ok' && x.verdict !== first.verdict,
  );
  return (
    <article
      className="flip-detail sc-detail"
      data-testid="sc-question-detail"
      aria-labelledby="sc-question-title"
    >
      <nav className="flip-detail__nav">
        <button type="button" className="btn btn--ghost" onClick={onBack}>
          ← {t('unstable.back')}
        </button>
      </nav>
      <header className="flip-detail__meta">
        <h2 id="sc-question-title" className="flip-detail__id mono">
          {row.itemId}
        </h2>
        <span className="chip">{row.judge}</span>
        <span className="chip">{condition(row.condition)}</span>
        <span className="chip">{t(`unstable.order.${row.order}`)}</span>
        {row.gold !== null && <span className="chip">{t('unstable.gold', { gold: row.gold })}</span>}
      </header>
      <section className="flip-texts">
        <div className="flip-texts__row">
          <div className="flip-texts__label">{t('unstable.instruction')}</div>
          <Text text={row.instruction} testId="sc-instruction" />
        </div>
        {row.shown.map((text, i) => (
          <div className="flip-texts__row" key={i}>
            <div className="flip-texts__label">
              {mode === 'pairwise'
                ? t(i === 0 ? 'unstable.responseA' : 'unstable.responseB')
                : t('unstable.response')}
            </div>
            <Text text={text} />
          </div>
        ))}
      </section>
      <div className="flip-detail__verdicts sc-repeats" data-testid="sc-repeats">
        {row.repeats.map((x) => {
          // Against the gold label where there is one (pairwise: the letter shown at the better
          // output's place; pointwise: the human score), else neutral.
          const tone =
            x.status !== 'ok' || row.gold === null ? 'tie' : x.verdict === row.gold ? 'right' : 'wrong';
          return (
            <section key={x.sample} className={`verdict-card verdict-card--${tone}`} data-testid="sc-repeat">
              <header className="verdict-card__head">
                <h3 className="verdict-card__title">{t('unstable.repeat', { n: x.sample + 1 })}</h3>
                <span className="chip" data-testid="sc-repeat-verdict">
                  {x.status === 'ok'
                    ? x.verdict
                    : x.status === 'failed'
                      ? t('unstable.failed')
                      : t('unstable.pending')}
                </span>
              </header>
              {x.confidence !== null && (
                <p className="hint">{t('unstable.confidence', { value: x.confidence.toFixed(2) })}</p>
              )}
              <div className="text verdict-card__reason" dir="auto">
                {x.status === 'ok' ? (x.reason ?? '') : (x.failure ?? '')}
              </div>
            </section>
          );
        })}
      </div>
      {dissent.map((x) => (
        <div key={x.sample} data-testid="sc-reason-diff">
          <h3 className="section-title">{t('unstable.diffTitle', { n: x.sample + 1 })}</h3>
          <ReasonDiff
            before={first.reason ?? ''}
            after={x.reason ?? ''}
            beforeLabel={t('unstable.onlyIn', { n: 1 })}
            afterLabel={t('unstable.onlyIn', { n: x.sample + 1 })}
          />
        </div>
      ))}
    </article>
  );
}
