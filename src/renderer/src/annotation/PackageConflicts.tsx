// Labels of an imported package that were not taken because this set's are newer (issue 40 item
// 3): listed, never dropped unsaid, with the page's way to take them anyway — the same call the
// CLI's `import-package --take-package-labels` makes.
import { useTranslation } from 'react-i18next';
import type { PackageLabelConflict } from '../../../shared/annotation/api-types';
import { useFormat } from '../lib/useFormat';
import { TableScroll } from '../components/TableScroll';
import './i18n';
import { TableHead } from '../kits/ListTable';
import { Button } from '../components/Button';

export function PackageConflicts({
  conflicts,
  busy,
  onTake,
  onKeep,
}: {
  conflicts: PackageLabelConflict[];
  busy: boolean;
  onTake: () => void;
  onKeep: () => void;
}) {
  const { t } = useTranslation('annotation');
  const format = useFormat();
  const label = (l: {
    value: PackageLabelConflict['ours']['value'];
    skipped: boolean;
    time: string | null;
  }) =>
    `${l.skipped ? t('conflicts.skipped') : String(l.value ?? '—')} · ${
      l.time ? format.dateTime(l.time) : t('conflicts.noTime')
    }`;
  return (
    <section
      className="results-banner"
      aria-labelledby="package-conflicts-title"
      data-testid="package-conflicts"
    >
      <h2 id="package-conflicts-title">{t('conflicts.title')}</h2>
      <p>{t('conflicts.intro')}</p>
      <TableScroll label={t('conflicts.title')} className="table-wrap">
        <table className="table">
          <TableHead
            columns={[
              t('conflicts.unit'),
              t('conflicts.annotator'),
              t('conflicts.ours'),
              t('conflicts.package'),
            ]}
          />
          <tbody>
            {conflicts.map((c) => (
              <tr key={`${c.unit}\u0000${c.annotator}`}>
                <td>{c.unit}</td>
                <td>{c.annotator}</td>
                <td>{label(c.ours)}</td>
                <td>{label(c.package)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <Button
        className="btn btn--small btn--primary"
        testId="take-package-labels"
        disabled={busy}
        onClick={onTake}
      >
        {t('conflicts.take', { count: conflicts.length })}
      </Button>{' '}
      <Button className="btn btn--small btn--ghost" disabled={busy} onClick={onKeep}>
        {t('conflicts.keep')}
      </Button>
    </section>
  );
}
