import { useTranslation } from 'react-i18next';
import type { InputIssue } from '../../../shared/domain';
import type { ApiError } from '../api';
import { useRefusalText } from '../refusals/refusal-text';

interface ErrorPanelProps {
  title: string;
  error: Pick<ApiError, 'message' | 'issues'> & Partial<Pick<ApiError, 'refusal'>>;
  onDismiss?: () => void;
  onRetry?: () => void;
  testId?: string;
}

/** `file:12` or `file row 3`: where the problem is, as precisely as the format allows. */
export function useIssueLocation(): (issue: InputIssue) => string {
  const { t } = useTranslation();
  return (issue) => {
    if (issue.line !== undefined) return `${issue.file}:${issue.line}`;
    if (issue.row !== undefined) return `${issue.file} ${t('import.issueRow', { row: issue.row })}`;
    return issue.file;
  };
}

/** A failure the user must read: the message and every located issue, never a summary. */
export function ErrorPanel({ title, error, onDismiss, onRetry, testId }: ErrorPanelProps) {
  const { t } = useTranslation();
  const locate = useIssueLocation();
  const text = useRefusalText();
  const issues = error.issues ?? [];
  return (
    <section className="error-panel" role="alert" data-testid={testId}>
      <header className="error-panel__head">
        <h2 className="error-panel__title">{title}</h2>
        <div className="error-panel__actions">
          {onRetry && (
            <button type="button" className="btn btn--small" onClick={onRetry}>
              {t('common.retry')}
            </button>
          )}
          {onDismiss && (
            <button type="button" className="btn btn--small btn--ghost" onClick={onDismiss}>
              {t('common.dismiss')}
            </button>
          )}
        </div>
      </header>
      <p className="error-panel__message text">{text(error)}</p>
      {issues.length > 0 && (
        <>
          <p className="error-panel__count">{t('import.issues', { count: issues.length })}</p>
          <ul className="issue-list">
            {issues.map((issue, i) => (
              <li key={i} className="issue">
                <span className="issue__where">{locate(issue)}</span>
                <span className="issue__field">{issue.field ?? ''}</span>
                <span className="issue__message text">{text(issue)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
