import { useCallback, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useConnection } from '../stores/connection';
import { useImport } from '../stores/import';
import { navigate, useRoute } from '../stores/route';
import { FileDrop } from './FileDrop';
import { LanguageSwitch } from './LanguageSwitch';
import { GlossaryDialog } from '../glossary/Glossary';
import '../glossary/i18n';

/** A link of the app's top navigation; the one of the section shown is marked as the current page. */
function NavLink({
  href,
  testId,
  current,
  children,
}: {
  href: string;
  testId?: string;
  current: boolean;
  children: ReactNode;
}) {
  return (
    <a href={href} className="nav-link" data-testid={testId} aria-current={current ? 'page' : undefined}>
      {children}
    </a>
  );
}

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
          <NavLink href="#/datasets" current={inDatasets}>
            {t('app.nav.datasets')}
          </NavLink>
          <NavLink href="#/experiments" testId="nav-experiments" current={inExperiments}>
            {t('app.nav.experiments')}
          </NavLink>
          <NavLink href="#/judges" testId="nav-judges" current={inJudges}>
            {t('nav', { ns: 'reportCard' })}
          </NavLink>
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
