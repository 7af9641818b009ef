import { useTranslation } from 'react-i18next';
import type { Refusal } from '../../../shared/refusals';
import { REFUSALS_NS } from './i18n';
import './i18n';

/**
 * The text of a refusal (or an issue) in the page's language: its key's translation when the
 * core gave one, else the core's own message (a refusal not yet keyed reads as the core wrote it).
 */
export function useRefusalText(): (e: { message: string; refusal?: Refusal }) => string {
  const { t } = useTranslation(REFUSALS_NS);
  return (e) => (e.refusal ? t(e.refusal.key, { ...e.refusal.params, defaultValue: e.message }) : e.message);
}
