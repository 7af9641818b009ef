import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { protocolOf, wizardPluginOf, wizardSteps, type StepId } from '../lib/experiment-config';
import { getRendererProtocol, protocolNamespaces } from '../protocols/registry';
import { useWizard } from '../stores/wizard';

/** The namespaces the wizard's texts come from: the chosen protocol's, then the app's. */
export function useWizardNamespaces(): string[] {
  const protocol = useWizard((s) => protocolOf(s.draft));
  return useMemo(() => protocolNamespaces(getRendererProtocol(protocol)), [protocol]);
}

/** The steps of the current draft with their labels (a protocol's own steps name themselves). */
export function useWizardSteps(): { id: StepId; label: string }[] {
  const draft = useWizard((s) => s.draft);
  const { t } = useTranslation(useWizardNamespaces());
  return useMemo(() => {
    const own = wizardPluginOf(draft)?.steps ?? [];
    return wizardSteps(draft).map((id) => ({
      id,
      label: t(own.find((s) => s.id === id)?.label ?? `wizard.steps.${id}`),
    }));
  }, [draft, t]);
}
