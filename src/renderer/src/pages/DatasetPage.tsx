import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NotFound } from '../components/NotFound';
import { Breadcrumb, PageHeader } from '../kits/PageFrame';
import { ErrorPanel } from '../components/ErrorPanel';
import { ItemTable } from '../components/ItemTable';
import { useItems } from '../stores/items';
import { navigate } from '../stores/route';
import { RenameDataset } from './RenameDataset';
import { useDatasetSummary } from './useDatasetSummary';
import { SearchField } from '../kits/SearchField';

const SEARCH_DEBOUNCE_MS = 250;
/**
 * Option value for items without a subset. The select's '' is "All subsets", so the
 * API's '' (no subset) needs a stand-in that no real subset name will collide with.
 */
const NO_SUBSET_OPTION = '\u0000none';

export function DatasetPage({ datasetId }: { datasetId: number }) {
  const { t } = useTranslation();
  const summary = useDatasetSummary(datasetId);
  const { rows, filter, loaded, loading, error, activeIndex, open, setFilter, setActiveIndex, reload } =
    useItems();
  // The search box starts from the kept filter only when coming back to the same dataset.
  const [search, setSearch] = useState(() =>
    useItems.getState().datasetId === datasetId ? useItems.getState().filter.search : '',
  );

  // Runs again when main.tsx drops the kept rows after a change elsewhere.
  useEffect(() => open(datasetId), [datasetId, open, loaded]);

  // Server-side search, sent once typing pauses.
  useEffect(() => {
    if (search === useItems.getState().filter.search) return;
    const timer = setTimeout(() => setFilter({ search }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search, setFilter]);

  if (summary === null) {
    return <NotFound message={t('dataset.notFound')} />;
  }

  const subsetValue = filter.subset === null ? '' : filter.subset === '' ? NO_SUBSET_OPTION : filter.subset;
  const name = summary?.name ?? '';
  const hasSubsets = summary ? summary.subsets.some((s) => s.subset !== '') : true;

  return (
    <div className="page page--fill">
      <Breadcrumb current={name}>
        <a href="#/datasets">{t('datasets.title')}</a>
      </Breadcrumb>
      <PageHeader
        compact
        title={name || t('common.loading')}
        intro={
          summary ? (
            <>
              {t('datasets.itemCount', { count: summary.itemCount })} · {summary.sourceFile}
            </>
          ) : undefined
        }
        tools={summary && <RenameDataset key={summary.name} datasetId={datasetId} name={summary.name} />}
      />

      <div className="filter-bar">
        {hasSubsets && (
          <label className="field">
            <span className="field__label">{t('dataset.subsetLabel')}</span>
            <select
              data-testid="subset-filter"
              value={subsetValue}
              onChange={(e) => {
                const v = e.target.value;
                setFilter({ subset: v === '' ? null : v === NO_SUBSET_OPTION ? '' : v });
              }}
            >
              <option value="">{t('dataset.allSubsets')}</option>
              {summary?.subsets.map((s) => (
                <option key={s.subset} value={s.subset === '' ? NO_SUBSET_OPTION : s.subset}>
                  {t('dataset.subsetOption', { subset: s.subset || t('datasets.noSubset'), count: s.count })}
                </option>
              ))}
            </select>
          </label>
        )}
        <SearchField
          label={t('dataset.search')}
          placeholder={t('dataset.searchPlaceholder')}
          value={search}
          onChange={setSearch}
          testId="item-search"
        />
        <span className="filter-bar__count" data-testid="item-count" aria-live="polite">
          {loaded ? t('dataset.itemCount', { count: rows.length }) : t('common.loading')}
        </span>
        {loading && loaded && <span className="spinner" aria-hidden="true" />}
      </div>
      <p className="hint">{t('dataset.tableHint')}</p>

      {error ? (
        <ErrorPanel title={t('dataset.loadFailed')} error={error} onRetry={() => void reload()} />
      ) : loaded && rows.length === 0 ? (
        <p className="empty-note">{t('dataset.noMatches')}</p>
      ) : (
        <ItemTable
          rows={rows}
          activeIndex={activeIndex}
          onActiveIndexChange={setActiveIndex}
          label={t('dataset.tableLabel', { name })}
          kind={summary?.kind}
          hasSubsets={hasSubsets}
          onOpen={(row) => navigate({ name: 'item', datasetId, itemId: row.id })}
        />
      )}
    </div>
  );
}
