import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError } from '../api';
import { getDesktop } from '../lib/desktop';
import './i18n';
import { Button } from '../components/Button';

/** "Open folder" after a desktop export (nothing in a browser: there the export is a download). */
export function OpenFolder({ dir }: { dir: string }) {
  const { t } = useTranslation('results');
  const [error, setError] = useState<string | null>(null);
  const desktop = getDesktop();
  if (!desktop) return null;
  return (
    <>
      <Button
        className="btn btn--small"
        testId="open-export-folder"
        onClick={() => {
          setError(null);
          desktop.openFolder(dir).catch((e: unknown) => setError(toApiError(e).message));
        }}
      >
        {t('export.openFolder')}
      </Button>
      {error && (
        <span className="inline-error" role="alert">
          {error}
        </span>
      )}
    </>
  );
}
