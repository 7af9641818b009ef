// The experiment page's way into human ratings (#/experiments/<id>/annotation).
import { useTranslation } from 'react-i18next';
import { routeHref } from '../stores/route';
import './i18n';

export const ANNOTATION_PAGE = 'annotation';

export function AnnotationLink({ experimentId }: { experimentId: number }) {
  const { t } = useTranslation('annotation');
  return (
    <a
      className="btn"
      data-testid="run-annotation"
      href={routeHref({ name: 'experiment-page', experimentId, page: ANNOTATION_PAGE, query: {} })}
    >
      {t('link')}
    </a>
  );
}
