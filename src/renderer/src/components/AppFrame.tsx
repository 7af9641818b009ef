import { useCallback, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useConnection } from '../stores/connection';
import { useImport } from '../stores/import';
import { navigate, useRoute } from '../stores/route';
import { FileDrop } from './FileDrop';
import { LanguageSwitch } from './LanguageSwitch';
import { GlossaryDialog } from '../glossary/Glossary';
import '../glossary/i18n';

export function AppFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const page = useRoute((s) => s.route.name);
  const connected = useConnection((s) => s.connected);
  const importFile = useImport((s) => s.importFile);
  const reject = useImport((s) => s.reject);

  // A file dropped on any page is imported; its progress and result live on the Datasets page.
  const onFile = useCallback(
    (file: File) => {
      navigate({ name: 'datasets' });
      void importFile(file);
    },
    [importFile],
  );
  const onRejectMany = useCallback(() => {
    navigate({ name: 'datasets' });
    reject('', t('import.oneAtATime'));
  }, [reject, t]);

  const inDatasets = page === 'datasets' || page === 'dataset' || page === 'item';
  const inJudges = page === 'judges';
  const inExperiments = !inDatasets && !inJudges && page !== 'not-found';
  return (
    <div className="frame">
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          // A plain #main link would be read as a route by the hash router.
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        {t('app.skipToContent')}
      </a>
      <header className="frame__header">
        <a className="brand" href="#/datasets">
          <span className="brand__mark" aria-hidden="true">
            ⚖
          </span>
          <span className="brand__name">{t('app.name')}</span>
          <span className="brand__tagline">{t('app.tagline')}</span>
        </a>
        <nav className="frame__nav" aria-label={t('app.name')}>
          <a href="#/datasets" className="nav-link" aria-current={inDatasets ? 'page' : undefined}>
            {t('app.nav.datasets')}
          </a>
          <a
            href="#/experiments"
            className="nav-link"
            data-testid="nav-experiments"
            aria-current={inExperiments ? 'page' : undefined}
          >
            {t('app.nav.experiments')}
          </a>
          <a
            href="#/judges"
            className="nav-link"
            data-testid="nav-judges"
            aria-current={inJudges ? 'page' : undefined}
          >
            {t('nav', { ns: 'reportCard' })}
          </a>
        </nav>
        <div className="frame__spacer" />
        <LanguageSwitch />
      </header>
      {connected === false && (
        <div className="banner" role="status">
          {t('app.disconnected')}
        </div>
      )}
      <main id="main" className="frame__main" tabIndex={-1}>
        {children}
      </main>
      <GlossaryDialog />
      <FileDrop onFile={onFile} onRejectMany={onRejectMany} />
    </div>
  );
}
