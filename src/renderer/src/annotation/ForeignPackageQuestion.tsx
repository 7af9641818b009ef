// Asked when a package's set is not one of this store's sets: opening it as a new set silently
// split one study in two when the person meant to merge. The answer resends the same file.
import { useTranslation } from 'react-i18next';
import type { PackageImport } from '../../../shared/annotation/api-types';
import './i18n';
import { Button } from '../components/Button';

export type ForeignPackage = Extract<PackageImport, { outcome: 'foreign-set' }>;

export function ForeignPackageQuestion({
  answer,
  onChoose,
  onCancel,
}: {
  answer: ForeignPackage;
  /** `intoSetId` merges the labels there; undefined opens the package as a new set. */
  onChoose: (intoSetId: number | undefined) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('annotation');
  const p = answer.package;
  return (
    <div
      className="results-banner"
      role="alertdialog"
      aria-labelledby="foreign-package-q"
      data-testid="foreign-package"
    >
      <p id="foreign-package-q">
        {t('foreign.question', { name: p.name, units: p.units, labels: p.labels })}{' '}
        {answer.candidates.length === 0 ? t('foreign.noMatch') : t('foreign.matches')}
      </p>
      {answer.candidates.map((c) => (
        <Button
          key={c.id}
          className="btn btn--small"
          testId={`foreign-merge-${c.id}`}
          onClick={() => onChoose(c.id)}
        >
          {t('foreign.merge', { name: c.name })}
        </Button>
      ))}{' '}
      <Button className="btn btn--small" testId="foreign-new-set" onClick={() => onChoose(undefined)}>
        {t('foreign.newSet')}
      </Button>{' '}
      <Button className="btn btn--small btn--ghost" onClick={onCancel}>
        {t('foreign.cancel')}
      </Button>
    </div>
  );
}
