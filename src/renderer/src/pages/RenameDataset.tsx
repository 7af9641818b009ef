import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getApi, toApiError } from '../api';
import { Button } from '../components/Button';

/** "Rename" beside a dataset's title: an inline field, saved through the core (names are unique). */
export function RenameDataset({ datasetId, name }: { datasetId: number; name: string }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(name);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (!editing)
    return (
      <Button
        className="btn btn--small btn--ghost"
        testId="rename-dataset"
        onClick={() => {
          setValue(name);
          setError(null);
          setEditing(true);
        }}
      >
        {t('dataset.rename')}
      </Button>
    );

  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      await getApi().call('datasets.rename', { datasetId, name: value });
      setEditing(false);
    } catch (e) {
      setError(toApiError(e).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="rename-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label className="visually-hidden" htmlFor={`rename-${datasetId}`}>
        {t('dataset.newName')}
      </label>
      <input
        id={`rename-${datasetId}`}
        type="text"
        data-testid="rename-input"
        value={value}
        autoFocus
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && setEditing(false)}
      />{' '}
      <button type="submit" className="btn btn--small btn--primary" data-testid="rename-save" disabled={busy}>
        {t('dataset.renameSave')}
      </button>{' '}
      <Button className="btn btn--small btn--ghost" onClick={() => setEditing(false)}>
        {t('common.cancel')}
      </Button>
      {error && (
        <p className="inline-error" role="alert" data-testid="rename-error">
          {error}
        </p>
      )}
    </form>
  );
}
