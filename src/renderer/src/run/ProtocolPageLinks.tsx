import { useTranslation } from 'react-i18next';
import { getRendererProtocol, protocolNamespaces } from '../protocols/registry';
import { routeHref } from '../stores/route';

/** Links to the pages a protocol offers from its run view (e.g. a review of transformed texts). */
export function ProtocolPageLinks({ protocol, experimentId }: { protocol: string; experimentId: number }) {
  const plugin = getRendererProtocol(protocol);
  const { t } = useTranslation(protocolNamespaces(plugin));
  return (
    <>
      {(plugin?.pages ?? [])
        .filter((p) => p.runLink)
        .map((p) => (
          <a
            key={p.route}
            className="btn"
            href={routeHref({ name: 'experiment-page', experimentId, page: p.route, query: {} })}
            data-testid={`run-${p.route}`}
          >
            {t(p.runLink!)}
          </a>
        ))}
    </>
  );
}
