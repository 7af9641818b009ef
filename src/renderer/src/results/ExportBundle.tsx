import { useTranslation } from 'react-i18next';
import { getApi } from '../api';
import { ExportAction } from '../kits/ExportAction';
import { downloadBase64 } from './download';
import './i18n';

/**
 * Export → Study bundle (issue 24): the one file (`*.judgelab`) a reviewer recomputes offline with
 * `judge-lab bundle verify`. The core writes it; the page only saves it.
 */
export function ExportBundle({ experimentId }: { experimentId: number }) {
  const { t } = useTranslation('results');
  return (
    <ExportAction
      testId="export-bundle"
      label={t('export.bundle')}
      busyLabel={t('export.bundleBusy')}
      run={async () => {
        const file = await getApi().call('experiments.exportBundle', { experimentId });
        downloadBase64(file);
        return file.fileName;
      }}
      done={(fileName) => (
        <p className="small" role="status" data-testid="export-bundle-result">
          {t('export.bundleDone', { file: fileName })}
        </p>
      )}
    />
  );
}
