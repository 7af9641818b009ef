import { useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ListState, ListTable, RowActionsWithDelete } from '../kits/ListTable';
import type { DatasetSummary } from '../../../shared/domain';
import { Notice } from '../components/Notice';
import { formatDateTime, formatNumber } from '../lib/format';
import { useAppInfo, useDatasets } from '../stores/datasets';
import { useImport } from '../stores/import';
import { routeHref } from '../stores/route';
import { ImportStatus } from './ImportStatus';
import { PageHeader } from '../kits/PageFrame';
import { Button } from '../components/Button';

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
      <RowActionsWithDelete
        texts={{
          delete: t('datasets.delete'),
          question: t('datasets.confirmDelete', { name: dataset.name, count: dataset.itemCount }),
          yes: t('datasets.confirmDeleteYes'),
          failed: t('datasets.deleteFailed'),
        }}
        remove={() => remove(dataset.id)}
        onDeleted={() => onDeleted(dataset.name)}
      />
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
          <Button
            className="btn btn--primary btn--large"
            testId="load-sample"
            disabled={busy}
            onClick={() => void loadSample(sample.id)}
          >
            <span>{t('datasets.loadSample', { name: sample.name })}</span>
            <span className="btn__sub">{t('datasets.loadSampleItems', { count: sample.itemCount })}</span>
          </Button>
        )}
        <Button className="btn btn--large" onClick={onPickFile} disabled={busy}>
          {t('datasets.import')}
        </Button>
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
      <PageHeader
        title={t('datasets.title')}
        intro={t('datasets.intro')}
        tools={
          datasets.length > 0 && (
            <Button className="btn btn--primary" onClick={pickFile} disabled={busy}>
              {t('datasets.import')}
            </Button>
          )
        }
      />
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

      <ListState
        loaded={loaded}
        error={error}
        loadFailed={t('datasets.loadFailed')}
        onRetry={() => void refresh()}
        empty={datasets.length === 0 ? <EmptyState onPickFile={pickFile} /> : null}
      >
        <ListTable
          label={t('datasets.title')}
          columns={[
            { label: t('datasets.columns.name') },
            { label: t('datasets.columns.source') },
            { label: t('datasets.columns.kind') },
            { label: t('datasets.columns.format') },
            { label: t('datasets.columns.items'), num: true },
            { label: t('datasets.columns.subsets') },
            { label: t('datasets.columns.created') },
          ]}
          actionsLabel={t('datasets.columns.actions')}
        >
          {datasets.map((d) => (
            <DatasetRow key={d.id} dataset={d} onDeleted={setDeletedName} />
          ))}
        </ListTable>
        <p className="hint">{t('datasets.importHint')}</p>
      </ListState>
    </div>
  );
}
