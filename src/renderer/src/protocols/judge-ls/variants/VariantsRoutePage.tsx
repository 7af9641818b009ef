import type { ProtocolPageProps } from '../../registry';
import { VariantsPage } from './VariantsPage';

const POSITIVE_INT = /^[1-9]\d{0,14}$/;

/** `#/experiments/<id>/variants?item=<itemId>`: the review page with that item open. */
export function VariantsRoutePage({ experimentId, query }: ProtocolPageProps) {
  const item = query.item ?? '';
  return (
    <VariantsPage experimentId={experimentId} itemId={POSITIVE_INT.test(item) ? Number(item) : undefined} />
  );
}
