import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  TRANSITION_SETTINGS,
  type Setting,
  type Transition,
} from '../../../../../shared/protocols/reference-sensitivity/types';
import {
  FLIPS_VIEW,
  type FlipRowView,
  type FlipsView,
} from '../../../../../shared/protocols/reference-sensitivity/views';
import { type ApiError, ErrorPanel, type ProtocolPageProps, toApiError, useApi } from '../../host';
import { REF_SENS_NAMESPACES } from '../i18n';
import { FlipDetail } from './FlipDetail';
import { apiQuery, CHANGES, REFSENS_FLIPS_PAGE, rowKey, TRANSITION_IDS, withFilter } from './query';
import './refsens-flips.css';

const ROW_HEIGHT = 40;

function useFlips(experimentId: number, query: Record<string, string>) {
  const wanted = JSON.stringify(apiQuery(query));
  const [state, setState] = useState<{ data: FlipsView | null; error: ApiError | null; loading: boolean }>({
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
        view: FLIPS_VIEW,
        query: JSON.parse(wanted) as Record<string, unknown>,
      })
      .then((data) => live && setState({ data: data as FlipsView, error: null, loading: false }))
      .catch((err) => live && setState((s) => ({ ...s, error: toApiError(err), loading: false })));
    return () => {
      live = false;
    };
  }, [experimentId, wanted, api]);
  return state;
}

/**
 * Reference sensitivity's flip browser: every answer whose verdict changes between settings
 * (or every answer), filtered by judge, language, generator, transition and direction; a
 * virtualized list, and one answer opened with its texts, verdicts and the explanations' diff.
 */
export function RefSensFlipsPage({ experimentId, query, onNavigate }: ProtocolPageProps) {
  const { t } = useTranslation(REF_SENS_NAMESPACES);
  const { data, error, loading } = useFlips(experimentId, query);
  const go = (q: Record<string, string>) =>
    onNavigate({ name: 'experiment-page', experimentId, page: REFSENS_FLIPS_PAGE, query: q });
  const setFilter = (key: string, value: string) => go(withFilter(query, key, value));
  const rows = data?.rows ?? [];
  const opened = useMemo(() => rows.find((r) => rowKey(r) === query.open) ?? null, [rows, query.open]);
  const transition = (query.transition as Transition | undefined) ?? 'NR-RV';
  const [from, to] = TRANSITION_SETTINGS[TRANSITION_IDS.includes(transition) ? transition : 'NR-RV'];

  const select = (name: string, label: string, options: { value: string; label: string }[]) => (
    <label className="field field--inline">
      <span className="field__label">{label}</span>
      <select
        data-testid={`refsens-filter-${name}`}
        value={query[name] ?? ''}
        onChange={(e) => setFilter(name, e.target.value)}
      >
        <option value="">{t('flips.any')}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <div className="page flips-page" data-testid="refsens-flips-page" aria-busy={loading}>
      <header className="page__header">
        <div>
          <h1 className="page__title">{t('flips.title')}</h1>
          <p className="page__intro">{t('flips.intro')}</p>
        </div>
        <div className="page__tools">
          <button
            type="button"
            className="btn btn--ghost"
            onClick={() => onNavigate({ name: 'results', experimentId, excludeFlagged: false })}
          >
            ← {t('flips.toResults')}
          </button>
        </div>
      </header>
      {error && <ErrorPanel title={t('flips.loadFailed')} error={error} />}
      {opened ? (
        <FlipDetail row={opened} from={from} to={to} onBack={() => go(withFilter(query, 'open', ''))} />
      ) : (
        <>
          <div className="refsens-filters" role="group" aria-label={t('flips.filters')}>
            {select(
              'judge',
              t('flips.judge'),
              (data?.judges ?? []).map((j) => ({ value: j, label: j })),
            )}
            {select(
              'language',
              t('flips.language'),
              (data?.languages ?? []).map((l) => ({ value: l, label: l })),
            )}
            {select(
              'generator',
              t('flips.generator'),
              (data?.generators ?? []).map((g) => ({ value: g, label: g })),
            )}
            {select(
              'transition',
              t('flips.transition'),
              TRANSITION_IDS.map((x) => ({ value: x, label: x.replace('-', ' → ') })),
            )}
            {select(
              'change',
              t('flips.direction'),
              CHANGES.map((c) => ({ value: c, label: t(`flips.change.${c}`) })),
            )}
            <label className="checkbox">
              <input
                type="checkbox"
                data-testid="refsens-filter-all"
                checked={query.all === '1'}
                onChange={(e) => setFilter('all', e.target.checked ? '1' : '')}
              />{' '}
              {t('flips.all')}
            </label>
          </div>
          <p className="hint" data-testid="refsens-flips-count" role="status">
            {data ? t('flips.count', { shown: rows.length, total: data.total }) : t('flips.loading')}
          </p>
          <FlipRows rows={rows} onOpen={(r) => go({ ...query, open: rowKey(r) })} label={t('flips.title')} />
        </>
      )}
    </div>
  );
}

function verdictMark(row: FlipRowView, s: Setting): string {
  const v = row.verdicts[s];
  if (!v) return '·';
  if (v.status !== 'ok') return '!';
  return v.verdict === 'CORRECT' ? '✓' : '✗';
}

/** Only the visible rows are in the DOM: at the paper's scale there are tens of thousands. */
function FlipRows({
  rows,
  onOpen,
  label,
}: {
  rows: FlipRowView[];
  onOpen: (r: FlipRowView) => void;
  label: string;
}) {
  const { t } = useTranslation(REF_SENS_NAMESPACES);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 6,
    initialRect: { width: 1000, height: 600 },
  });
  // The body is one focus stop: arrows move a cursor (announced via aria-activedescendant), Enter opens.
  const [cursor, setCursor] = useState(0);
  const active = Math.min(cursor, Math.max(0, rows.length - 1));
  const idPrefix = useId();
  const move = (to: number) => {
    if (rows.length === 0) return;
    const next = Math.max(0, Math.min(rows.length - 1, to));
    setCursor(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };
  const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 600) / ROW_HEIGHT) - 1);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(active + 1),
      ArrowUp: () => move(active - 1),
      PageDown: () => move(active + page),
      PageUp: () => move(active - page),
      Home: () => move(0),
      End: () => move(rows.length - 1),
      Enter: () => rows[active] && onOpen(rows[active]),
    };
    const action = keys[e.key];
    if (action && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      action();
    }
  };
  const headId = `${idPrefix}-head`;
  // With the noise floor on, each row says whether NR's own repeat changed its verdict.
  const repeats = rows.some((r) => r.nrRepeatFlipped !== undefined);
  return (
    <div className={`flip-table refsens-flip-table${repeats ? ' refsens-flip-table--repeat' : ''}`}>
      <div id={headId} className="flip-table__row flip-table__row--head" role="row" aria-rowindex={1}>
        <span role="columnheader">{t('flips.col.item')}</span>
        <span role="columnheader">{t('flips.col.judge')}</span>
        <span role="columnheader">{t('flips.col.generator')}</span>
        <span role="columnheader">{t('flips.col.language')}</span>
        <span role="columnheader">{t('flips.col.question')}</span>
        <span role="columnheader">NR · RV · RC</span>
        {repeats && <span role="columnheader">{t('flips.repeatCol')}</span>}
      </div>
      <div
        ref={scrollRef}
        className="flip-table__body"
        role="grid"
        aria-label={label}
        aria-rowcount={rows.length + 1}
        aria-owns={headId}
        tabIndex={0}
        data-testid="refsens-flip-list"
        onKeyDown={onKeyDown}
        aria-activedescendant={rows[active] ? `${idPrefix}-row-${active}` : undefined}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            const r = rows[v.index];
            return (
              <div
                key={rowKey(r)}
                id={`${idPrefix}-row-${v.index}`}
                role="row"
                aria-rowindex={v.index + 2}
                aria-selected={v.index === active}
                data-testid="refsens-flip-row"
                className={`flip-table__row${v.index === active ? ' flip-table__row--active' : ''}`}
                style={{ height: v.size, transform: `translateY(${v.start}px)` }}
                onClick={() => {
                  setCursor(v.index);
                  onOpen(r);
                }}
              >
                <span role="cell" className="mono ellipsis" title={r.sourceId}>
                  {r.sourceId}
                </span>
                <span role="cell" className="ellipsis">
                  {r.judge}
                </span>
                <span role="cell" className="ellipsis">
                  {r.generator}
                </span>
                <span role="cell">{r.language}</span>
                <span role="cell" className="ellipsis" dir="auto" title={r.question}>
                  {r.question}
                </span>
                <span role="cell" className="mono nowrap">
                  {(['NR', 'RV', 'RC'] as const).map((s) => verdictMark(r, s)).join(' · ')}
                </span>
                {repeats && (
                  <span role="cell" className="ellipsis">
                    {r.nrRepeatFlipped ? (
                      <span
                        className="chip"
                        data-testid="repeat-flipped"
                        title={t('flips.repeatFlippedHelp')}
                      >
                        {t('flips.repeatFlipped')}
                      </span>
                    ) : r.nrRepeatFlipped === false ? (
                      t('flips.repeatSame')
                    ) : (
                      '·'
                    )}
                  </span>
                )}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
