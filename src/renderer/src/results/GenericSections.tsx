import { useTranslation } from 'react-i18next';
import type { ResultsSectionsProps } from '../protocols/registry';
import { ResultTables } from '../kits/ResultSections';
import './i18n';

/**
 * The results of a protocol without a renderer plug-in: every table of `results.tables`, as the
 * export writes it (title, caption, columns), each with its export buttons.
 */
export function GenericSections({ results, experimentId, excludeFlagged }: ResultsSectionsProps) {
  const { t } = useTranslation('results');
  return (
    <>
      <p className="hint">{t('generic')}</p>
      <ResultTables tables={results.tables} experimentId={experimentId} sensitivity={excludeFlagged} />
    </>
  );
}
