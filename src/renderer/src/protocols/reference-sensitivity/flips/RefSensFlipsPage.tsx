import { useMemo } from 'react';
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
import {
  asOptions,
  BrowserFilters,
  FilterSelect,
  ItemBrowserPage,
  type FilterOption,
} from '../../../kits/ItemBrowser';
import { useProtocolView } from '../../../kits/useProtocolView';
import { withFilter } from '../../../kits/url-query';
import { GridRow, VirtualGrid } from '../../../kits/VirtualGrid';
import type { ProtocolPageProps } from '../../registry';
import { REF_SENS_NAMESPACES } from '../i18n';
import { FlipDetail } from './FlipDetail';
import { apiQuery, CHANGES, REFSENS_FLIPS_PAGE, rowKey, TRANSITION_IDS } from './query';
import './refsens-flips.css';

const asFlipsView = (data: unknown) => data as FlipsView;

/**
 * Reference sensitivity's flip browser: every answer whose verdict changes between settings
 * (or every answer), filtered by judge, language, generator, transition and direction; a
 * virtualized list, and one answer opened with its texts, verdicts and the explanations' diff.
 */
export function RefSensFlipsPage({ experimentId, query, onNavigate }: ProtocolPageProps) {
  const { t } = useTranslation(REF_SENS_NAMESPACES);
  const { data, error, loading } = useProtocolView(experimentId, FLIPS_VIEW, apiQuery(query), asFlipsView);
  const go = (q: Record<string, string>) =>
    onNavigate({ name: 'experiment-page', experimentId, page: REFSENS_FLIPS_PAGE, query: q });
  const setFilter = (key: string, value: string) => go(withFilter(query, key, value));
  const rows = data?.rows ?? [];
  const opened = useMemo(() => rows.find((r) => rowKey(r) === query.open) ?? null, [rows, query.open]);
  const transition = (query.transition as Transition | undefined) ?? 'NR-RV';
  const [from, to] = TRANSITION_SETTINGS[TRANSITION_IDS.includes(transition) ? transition : 'NR-RV'];
  const select = (name: string, label: string, options: readonly FilterOption[]) => (
    <FilterSelect
      label={label}
      testId={`refsens-filter-${name}`}
      value={query[name] ?? ''}
      anyLabel={t('flips.any')}
      options={options}
      onChange={(v) => setFilter(name, v)}
    />
  );

  return (
    <ItemBrowserPage
      testId="refsens-flips-page"
      texts={{
        title: t('flips.title'),
        intro: t('flips.intro'),
        toResults: t('flips.toResults'),
        loadFailed: t('flips.loadFailed'),
      }}
      experimentId={experimentId}
      onNavigate={onNavigate}
      loading={loading}
      error={error}
      detail={
        opened && (
          <FlipDetail row={opened} from={from} to={to} onBack={() => go(withFilter(query, 'open', ''))} />
        )
      }
    >
      <BrowserFilters label={t('flips.filters')}>
        {select('judge', t('flips.judge'), asOptions(data?.judges))}
        {select('language', t('flips.language'), asOptions(data?.languages))}
        {select('generator', t('flips.generator'), asOptions(data?.generators))}
        {select(
          'transition',
          t('flips.transition'),
          asOptions(TRANSITION_IDS, (x) => x.replace('-', ' → ')),
        )}
        {select(
          'change',
          t('flips.direction'),
          asOptions(CHANGES, (c) => t(`flips.change.${c}`)),
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
      </BrowserFilters>
      <p className="hint" data-testid="refsens-flips-count" role="status">
        {data ? t('flips.count', { shown: rows.length, total: data.total }) : t('flips.loading')}
      </p>
      <FlipRows rows={rows} onOpen={(r) => go({ ...query, open: rowKey(r) })} label={t('flips.title')} />
    </ItemBrowserPage>
  );
}

function verdictMark(row: FlipRowView, s: Setting): string {
  const v = row.verdicts[s];
  if (!v) return '·';
  if (v.status !== 'ok') return '!';
  return v.verdict === 'CORRECT' ? '✓' : '✗';
}

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
  // With the noise floor on, each row says whether NR's own repeat changed its verdict.
  const repeats = rows.some((r) => r.nrRepeatFlipped !== undefined);
  return (
    <VirtualGrid
      count={rows.length}
      className={`refsens-flip-table${repeats ? ' refsens-flip-table--repeat' : ''}`}
      label={label}
      testId="refsens-flip-list"
      onOpen={(i) => onOpen(rows[i])}
      head={
        <>
          <span role="columnheader">{t('flips.col.item')}</span>
          <span role="columnheader">{t('flips.col.judge')}</span>
          <span role="columnheader">{t('flips.col.generator')}</span>
          <span role="columnheader">{t('flips.col.language')}</span>
          <span role="columnheader">{t('flips.col.question')}</span>
          <span role="columnheader">NR · RV · RC</span>
          {repeats && <span role="columnheader">{t('flips.repeatCol')}</span>}
        </>
      }
      renderRow={(place) => {
        const r = rows[place.index];
        return (
          <GridRow key={rowKey(r)} place={place} testId="refsens-flip-row">
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
                  <span className="chip" data-testid="repeat-flipped" title={t('flips.repeatFlippedHelp')}>
                    {t('flips.repeatFlipped')}
                  </span>
                ) : r.nrRepeatFlipped === false ? (
                  t('flips.repeatSame')
                ) : (
                  '·'
                )}
              </span>
            )}
          </GridRow>
        );
      }}
    />
  );
}
