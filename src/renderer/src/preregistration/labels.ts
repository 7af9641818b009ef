// A comparison's label in the page's language: the protocol's UI strings name it by `labelKey`
// (as the wizard's power plan does); the core's English label is the fallback.
import { useTranslation } from 'react-i18next';
import type { PreregistrationView } from '../../../shared/paper/preregistration';
import { getRendererProtocol, protocolNamespaces } from '../protocols/registry';

export function useComparisonLabels(
  protocol: string | undefined,
  comparisons: PreregistrationView['comparisons'],
): Map<string, string> {
  const namespaces = protocolNamespaces(protocol ? getRendererProtocol(protocol) : undefined);
  const { t } = useTranslation(namespaces);
  return new Map(
    comparisons.map((c) => [
      c.id,
      c.labelKey ? t(c.labelKey, { ns: namespaces, defaultValue: c.label, ...c.labelParams }) : c.label,
    ]),
  );
}
