import { type ProtocolPageProps, useReadOnlyBundle } from '../../host';
import { variantsRoute } from '../routes';
import { VariantsPage } from './VariantsPage';

const POSITIVE_INT = /^[1-9]\d{0,14}$/;

/** `#/experiments/<id>/variants?item=<itemId>`: the review page with that item open. */
export function VariantsRoutePage({ experimentId, query, onNavigate }: ProtocolPageProps) {
  const item = query.item ?? '';
  // In an opened bundle the page's address is the bundle's: another item is opened in its page.
  const inBundle = useReadOnlyBundle();
  return (
    <VariantsPage
      experimentId={experimentId}
      itemId={POSITIVE_INT.test(item) ? Number(item) : undefined}
      onSelect={inBundle ? (id) => onNavigate(variantsRoute(experimentId, id)) : undefined}
    />
  );
}
