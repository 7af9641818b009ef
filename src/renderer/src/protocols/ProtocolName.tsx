import { useTranslation } from 'react-i18next';
import { getRendererProtocol, protocolNamespaces } from './registry';

/** A protocol by its title in the UI's language (an unknown one by its id, or `fallback`). */
export function ProtocolName({ id, fallback }: { id: string; fallback?: string }) {
  const protocol = getRendererProtocol(id);
  const { t } = useTranslation(protocolNamespaces(protocol));
  return <>{protocol ? t(protocol.title) : (fallback ?? id)}</>;
}
