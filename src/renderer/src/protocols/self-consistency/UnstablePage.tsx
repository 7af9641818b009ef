import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  readRepeatsView,
  REPEATS_VIEW,
  type QuestionView,
} from '../../../../shared/protocols/self-consistency/views';
import {
  asOptions,
  BrowserFilters,
  FilterSelect,
  ItemBrowserPage,
  ItemDetail,
  ModelText,
  TextRow,
  VerdictCard,
  VerdictReason,
  type FilterOption,
} from '../../kits/ItemBrowser';
import { useProtocolView } from '../../kits/useProtocolView';
import { withFilter } from '../../kits/url-query';
import { GridRow, VirtualGrid } from '../../kits/VirtualGrid';
import { ReasonDiff } from '../../results/ReasonDiff';
import type { ProtocolPageProps } from '../registry';
import { SC_NAMESPACES } from './i18n';
import { apiQuery, rowKey, SC_UNSTABLE_PAGE } from './query';
import './self-consistency.css';

/**
 * Self-consistency's unstable-items browser: the questions whose repeats disagree (or all of
 * them), filtered by judge, temperature and category; one question opened shows its texts, every
 * repeat's verdict and reason side by side, and the word diff of each dissenting reason.
 */
export function UnstablePage({ experimentId, query, onNavigate }: ProtocolPageProps) {
  const { t } = useTranslation(SC_NAMESPACES);
  const { data, error, loading } = useProtocolView(
    experimentId,
    REPEATS_VIEW,
    apiQuery(query),
    readRepeatsView,
  );
  const go = (q: Record<string, string>) =>
    onNavigate({ name: 'experiment-page', experimentId, page: SC_UNSTABLE_PAGE, query: q });
  const setFilter = (key: string, value: string) => go(withFilter(query, key, value));
  const rows = data?.rows ?? [];
  const opened = useMemo(() => rows.find((r) => rowKey(r) === query.open) ?? null, [rows, query.open]);
  const condition = (c: string) => (c === 'own' ? t('unstable.own') : c);
  const select = (name: string, label: string, options: readonly FilterOption[]) => (
    <FilterSelect
      label={label}
      testId={`sc-filter-${name}`}
      value={query[name] ?? ''}
      anyLabel={t('unstable.any')}
      options={options}
      onChange={(v) => setFilter(name, v)}
    />
  );

  return (
    <ItemBrowserPage
      testId="sc-unstable-page"
      texts={{
        title: t('unstable.title'),
        intro: t('unstable.intro'),
        toResults: t('unstable.toResults'),
        loadFailed: t('unstable.loadFailed'),
      }}
      experimentId={experimentId}
      onNavigate={onNavigate}
      loading={loading}
      error={error}
      detail={
        opened && (
          <QuestionDetail
            row={opened}
            mode={data!.mode}
            condition={condition}
            onBack={() => go(withFilter(query, 'open', ''))}
          />
        )
      }
    >
      <BrowserFilters>
        {select('judge', t('unstable.judge'), asOptions(data?.judges))}
        {select('condition', t('unstable.condition'), asOptions(data?.conditions, condition))}
        {select('category', t('unstable.category'), asOptions(data?.categories))}
        <label className="checkbox">
          <input
            type="checkbox"
            data-testid="sc-filter-all"
            checked={query.all === '1'}
            onChange={(e) => setFilter('all', e.target.checked ? '1' : '')}
          />{' '}
          {t('unstable.all')}
        </label>
      </BrowserFilters>
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
    </ItemBrowserPage>
  );
}

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
  return (
    <VirtualGrid
      count={rows.length}
      className="sc-table"
      label={label}
      testId="sc-unstable-list"
      onOpen={(i) => onOpen(rows[i])}
      head={
        <>
          <span role="columnheader">{t('unstable.col.item')}</span>
          <span role="columnheader">{t('unstable.col.judge')}</span>
          <span role="columnheader">{t('unstable.col.condition')}</span>
          <span role="columnheader">{t('unstable.col.order')}</span>
          <span role="columnheader">{t('unstable.col.verdicts')}</span>
        </>
      }
      renderRow={(place) => {
        const r = rows[place.index];
        return (
          <GridRow key={rowKey(r)} place={place} testId="sc-unstable-row">
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
          </GridRow>
        );
      }}
    />
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
    <ItemDetail
      testId="sc-question-detail"
      className="browser-detail sc-detail"
      titleId="sc-question-title"
      title={row.itemId}
      backLabel={t('unstable.back')}
      onBack={onBack}
      chips={
        <>
          <span className="chip">{row.judge}</span>
          <span className="chip">{condition(row.condition)}</span>
          <span className="chip">{t(`unstable.order.${row.order}`)}</span>
          {row.gold !== null && <span className="chip">{t('unstable.gold', { gold: row.gold })}</span>}
        </>
      }
    >
      <section className="flip-texts">
        <TextRow label={t('unstable.instruction')}>
          <ModelText text={row.instruction} testId="sc-instruction" />
        </TextRow>
        {row.shown.map((text, i) => (
          <TextRow
            key={i}
            label={
              mode === 'pairwise'
                ? t(i === 0 ? 'unstable.responseA' : 'unstable.responseB')
                : t('unstable.response')
            }
          >
            <ModelText text={text} />
          </TextRow>
        ))}
      </section>
      <div className="flip-detail__verdicts sc-repeats" data-testid="sc-repeats">
        {row.repeats.map((x) => (
          <VerdictCard
            key={x.sample}
            // Against the gold label where there is one (pairwise: the letter shown at the better
            // output's place; pointwise: the human score), else neutral.
            tone={x.status !== 'ok' || row.gold === null ? 'tie' : x.verdict === row.gold ? 'right' : 'wrong'}
            title={t('unstable.repeat', { n: x.sample + 1 })}
            verdict={
              x.status === 'ok'
                ? (x.verdict ?? '')
                : x.status === 'failed'
                  ? t('unstable.failed')
                  : t('unstable.pending')
            }
            testId="sc-repeat"
            verdictTestId="sc-repeat-verdict"
          >
            {x.confidence !== null && (
              <p className="hint">{t('unstable.confidence', { value: x.confidence.toFixed(2) })}</p>
            )}
            <VerdictReason text={x.status === 'ok' ? (x.reason ?? '') : (x.failure ?? '')} />
          </VerdictCard>
        ))}
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
    </ItemDetail>
  );
}
