// The lists of the app's own records (datasets, experiments): the loading/failed/empty states, the
// table with a hidden actions column, and a row's delete with its confirmation.
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError, type ApiError } from '../api';
import { ErrorPanel } from '../components/ErrorPanel';
import { TableScroll } from '../components/TableScroll';

/** What a list shows before and instead of its rows: loading, the failure, or its empty state. */
export function ListState({
  loaded,
  error,
  loadFailed,
  onRetry,
  empty,
  children,
}: {
  loaded: boolean;
  error: ApiError | null;
  loadFailed: string;
  onRetry: () => void;
  /** Shown instead of the rows when there are none; null when there are rows. */
  empty: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  if (!loaded) return <p className="empty-note">{t('common.loading')}</p>;
  if (error) return <ErrorPanel title={loadFailed} error={error} onRetry={onRetry} />;
  return <>{empty ?? children}</>;
}

export interface ListColumn {
  label: string;
  /** A column of numbers, aligned to the right. */
  num?: boolean;
}

/** A table's column headers, numbers' columns aligned to the right; a plain label is a text column. */
export function HeadCells({ columns }: { columns: readonly (ListColumn | string)[] }) {
  return (
    <>
      {columns.map((column) => {
        const c = typeof column === 'string' ? { label: column } : column;
        return (
          <th key={c.label} scope="col" className={c.num ? 'num' : undefined}>
            {c.label}
          </th>
        );
      })}
    </>
  );
}

/** A table's head: one row of column headers. */
export function TableHead({ columns }: { columns: readonly (ListColumn | string)[] }) {
  return (
    <thead>
      <tr>
        <HeadCells columns={columns} />
      </tr>
    </thead>
  );
}

/** The records' table: a header per column, then an actions column named only for screen readers. */
export function ListTable({
  label,
  columns,
  actionsLabel,
  children,
}: {
  label: string;
  columns: readonly ListColumn[];
  actionsLabel: string;
  children: ReactNode;
}) {
  return (
    <TableScroll className="table-wrap" label={label}>
      <table className="datasets-table">
        <thead>
          <tr>
            <HeadCells columns={columns} />
            <th scope="col">
              <span className="visually-hidden">{actionsLabel}</span>
            </th>
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </TableScroll>
  );
}

/**
 * A row's actions cell: its other actions and Delete, which asks first; a failed delete says
 * why under the buttons and leaves the row.
 */
export function RowActionsWithDelete({
  texts,
  remove,
  onDeleted,
  actions,
}: {
  texts: { delete: string; question: string; yes: string; failed: string };
  remove: () => Promise<void>;
  onDeleted: () => void;
  /** The row's other actions, before Delete; without them Delete stands alone. */
  actions?: ReactNode;
}) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const doDelete = async () => {
    setBusy(true);
    try {
      await remove();
      onDeleted();
    } catch (err) {
      setError(toApiError(err));
      setBusy(false);
      setConfirming(false);
    }
  };
  const deleteButton = (
    <button type="button" className="btn btn--small btn--ghost" onClick={() => setConfirming(true)}>
      {texts.delete}
    </button>
  );
  return (
    <td className="actions">
      {confirming ? (
        <div className="confirm" role="group" aria-label={texts.delete}>
          <span className="confirm__text">{texts.question}</span>
          <button type="button" className="btn btn--small btn--danger" onClick={doDelete} disabled={busy}>
            {texts.yes}
          </button>
          <button
            type="button"
            className="btn btn--small btn--ghost"
            onClick={() => setConfirming(false)}
            disabled={busy}
          >
            {t('common.cancel')}
          </button>
        </div>
      ) : actions ? (
        <div className="row-actions">
          {actions}
          {deleteButton}
        </div>
      ) : (
        deleteButton
      )}
      {error && (
        <p className="inline-error">
          {texts.failed}: {error.message}
        </p>
      )}
    </td>
  );
}
