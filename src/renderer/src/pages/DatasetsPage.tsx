import { useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { DatasetSummary } from '../../../shared/domain';
import { ErrorPanel } from '../components/ErrorPanel';
import { Notice } from '../components/Notice';
import { formatDateTime, formatNumber } from '../lib/format';
import { useAppInfo, useDatasets } from '../stores/datasets';
import { useImport } from '../stores/import';
import { routeHref } from '../stores/route';
import { ImportStatus } from './ImportStatus';
import { ConfirmDelete, useConfirmedDelete } from '../components/ConfirmDelete';
import { ListTable } from '../components/ListTable';

const ACCEPT = '.jsonl,.json,.csv';

function SubsetChips({ dataset }: { dataset: DatasetSummary }) {
  const { t, i18n } = useTranslation();
  return (
    <ul className="chips">
      {dataset.subsets.map((s) => (
        <li key={s.subset} className="chip">
          <span>{s.subset || t('datasets.noSubset')}</span>
          <span className="chip__count">{formatNumber(s.count, i18n.language)}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * The file format as the list names it: "LLMBar" only for pairwise files (the LLMBar layout);
 * a QA or pointwise JSONL file is just JSONL.
 */
function formatKey(dataset: DatasetSummary): string {
  if ((dataset.kind ?? 'pairwise') === 'pairwise') return dataset.format;
  return dataset.format === 'llmbar-jsonl'
    ? 'jsonl'
    : dataset.format === 'llmbar-json'
      ? 'json'
      : dataset.format;
}

function DatasetRow({ dataset, onDeleted }: { dataset: DatasetSummary; onDeleted: (name: string) => void }) {
  const { t, i18n } = useTranslation();
  const kind = dataset.kind ?? 'pairwise';
  const remove = useDatasets((s) => s.remove);
  const deletion = useConfirmedDelete(
    () => remove(dataset.id),
    () => onDeleted(dataset.name),
  );

  return (
    <tr data-testid="dataset-row" data-dataset-id={dataset.id}>
      <td>
        <a className="dataset-name" href={routeHref({ name: 'dataset', datasetId: dataset.id })}>
          {dataset.name}
        </a>
      </td>
      <td className="mono small">{dataset.sourceFile}</td>
      <td className="small" data-testid="dataset-kind">
        {t(`datasets.kinds.${kind}`, { defaultValue: kind })}
      </td>
      <td className="small" data-testid="dataset-format">
        {t(`datasets.formats.${formatKey(dataset)}`, { defaultValue: dataset.format })}
      </td>
      <td className="num" data-testid="dataset-item-count">
        {t('datasets.itemCount', { count: dataset.itemCount })}
      </td>
      <td>
        <SubsetChips dataset={dataset} />
      </td>
      <td className="small nowrap">{formatDateTime(dataset.createdAt, i18n.language)}</td>
      <td className="actions">
        {deletion.confirming ? (
          <ConfirmDelete
            label={t('datasets.delete')}
            question={t('datasets.confirmDelete', { name: dataset.name, count: dataset.itemCount })}
            yes={t('datasets.confirmDeleteYes')}
            state={deletion}
          />
        ) : (
          <button type="button" className="btn btn--small btn--ghost" onClick={deletion.ask}>
            {t('datasets.delete')}
          </button>
        )}
        {deletion.error && (
          <p className="inline-error">
            {t('datasets.deleteFailed')}: {deletion.error.message}
          </p>
        )}
      </td>
    </tr>
  );
}

function EmptyState({ onPickFile }: { onPickFile: () => void }) {
  const { t } = useTranslation();
  const sample = useAppInfo((s) => s.info?.samples.find((x) => x.id === 'llmbar'));
  const loadSample = useImport((s) => s.loadSample);
  const busy = useImport((s) => s.phase.kind !== 'idle');
  return (
    <section className="empty-state">
      <h2>{t('datasets.emptyTitle')}</h2>
      <p className="empty-state__body">{t('datasets.emptyBody')}</p>
      <div className="empty-state__actions">
        {sample && (
          <button
            type="button"
            className="btn btn--primary btn--large"
            data-testid="load-sample"
            disabled={busy}
            onClick={() => void loadSample(sample.id)}
          >
            <span>{t('datasets.loadSample', { name: sample.name })}</span>
            <span className="btn__sub">{t('datasets.loadSampleItems', { count: sample.itemCount })}</span>
          </button>
        )}
        <button type="button" className="btn btn--large" onClick={onPickFile} disabled={busy}>
          {t('datasets.import')}
        </button>
      </div>
      <p className="hint">{t('datasets.importHint')}</p>
    </section>
  );
}

export function DatasetsPage() {
  const { t } = useTranslation();
  const { datasets, loaded, error, refresh } = useDatasets();
  const importFile = useImport((s) => s.importFile);
  const busy = useImport((s) => s.phase.kind !== 'idle');
  const inputRef = useRef<HTMLInputElement>(null);
  const [deletedName, setDeletedName] = useState<string | null>(null);

  const onInput = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    // Cleared so picking the same file again (after fixing it) fires change again.
    e.target.value = '';
    if (file) {
      setDeletedName(null);
      void importFile(file);
    }
  };
  const pickFile = () => inputRef.current?.click();

  return (
    <div className="page">
      <header className="page__header">
        <div>
          <h1 className="page__title">{t('datasets.title')}</h1>
          <p className="page__intro">{t('datasets.intro')}</p>
        </div>
        {datasets.length > 0 && (
          <div className="page__tools">
            <button type="button" className="btn btn--primary" onClick={pickFile} disabled={busy}>
              {t('datasets.import')}
            </button>
          </div>
        )}
      </header>
      <input
        ref={inputRef}
        type="file"
        accept={ACCEPT}
        className="visually-hidden"
        data-testid="import-input"
        tabIndex={-1}
        aria-hidden="true"
        onChange={onInput}
      />

      <div className="stack">
        <ImportStatus />
        {deletedName && (
          <Notice tone="info" onDismiss={() => setDeletedName(null)}>
            {t('datasets.deleted', { name: deletedName })}
          </Notice>
        )}
      </div>

      {!loaded ? (
        <p className="empty-note">{t('common.loading')}</p>
      ) : error ? (
        <ErrorPanel title={t('datasets.loadFailed')} error={error} onRetry={() => void refresh()} />
      ) : datasets.length === 0 ? (
        <EmptyState onPickFile={pickFile} />
      ) : (
        <>
          <ListTable
            label={t('datasets.title')}
            columns={[
              { label: t('datasets.columns.name') },
              { label: t('datasets.columns.source') },
              { label: t('datasets.columns.kind') },
              { label: t('datasets.columns.format') },
              { label: t('datasets.columns.items'), numeric: true },
              { label: t('datasets.columns.subsets') },
              { label: t('datasets.columns.created') },
              { label: t('datasets.columns.actions'), screenReaderOnly: true },
            ]}
          >
            {datasets.map((d) => (
              <DatasetRow key={d.id} dataset={d} onDeleted={setDeletedName} />
            ))}
          </ListTable>
          <p className="hint">{t('datasets.importHint')}</p>
        </>
      )}
    </div>
  );
}
