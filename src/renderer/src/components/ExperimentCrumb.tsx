import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApi, useReadOnlyBundle } from '../api/scope';
import { routeHref } from '../stores/route';

/**
 * The breadcrumb's link back to an experiment, named as the user named it (issue 26: a crumb
 * that says "Run" on every experiment says nothing). `name` when the page already has it;
 * otherwise it is read once. Until then (or when the read fails) it shows the experiment's number.
 */
export function ExperimentCrumb({ experimentId, name }: { experimentId: number; name?: string | null }) {
  const { t } = useTranslation();
  const [read, setRead] = useState<{ id: number; name: string } | null>(null);
  const api = useApi();
  const inBundle = useReadOnlyBundle();
  useEffect(() => {
    if (name) return;
    let live = true;
    api.call('experiments.get', { experimentId }).then(
      (d) => live && typeof d?.name === 'string' && setRead({ id: experimentId, name: d.name }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [experimentId, name, api]);
  const shown = name || (read?.id === experimentId ? read.name : null);
  // An opened bundle's experiment is not one of the user's: named, never linked.
  if (inBundle) return <span data-testid="breadcrumb-experiment">{shown ?? ''}</span>;
  return (
    <a href={routeHref({ name: 'experiment', experimentId })} data-testid="breadcrumb-experiment">
      {shown ?? t('common.experimentNumber', { id: experimentId })}
    </a>
  );
}
