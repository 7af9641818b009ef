// Issue 15 item 12: a file whose columns are named differently imports once the person says
// which column is which field. Shown in place of the import error; the core remembers the
// mapping for files with the same columns.
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ColumnChoice, DatasetKind } from '../../../shared/domain';
import type { ApiError } from '../api';
import { Field } from '../components/Field';
import { useIssueLocation } from '../components/ErrorPanel';
import { draftMapping, draftProblems, fieldsOf, previewRows, startDraft, type Draft } from './column-choice';
import { IMPORT_COLUMNS_NS } from './import-columns-i18n';
import './column-chooser.css';
import { Button } from '../components/Button';

interface Props {
  file: string;
  choice: ColumnChoice;
  error: Pick<ApiError, 'message' | 'issues'>;
  onImport: (columns: Record<string, string>) => void;
  onCancel: () => void;
}

export function ColumnChooser({ file, choice, error, onImport, onCancel }: Props) {
  const { t } = useTranslation([IMPORT_COLUMNS_NS, 'translation']);
  const locate = useIssueLocation();
  const titleId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [kind, setKind] = useState<DatasetKind>(choice.kind);
  const [draft, setDraft] = useState<Draft>(() => startDraft(choice, choice.kind));
  // Keyboard and screen reader users land on the screen that replaced the file picker's result.
  useEffect(() => heading.current?.focus(), [choice]);

  const fields = fieldsOf(choice, kind);
  const problems = draftProblems(choice, kind, draft);
  const preview = previewRows(choice, kind, draft);
  const ready = problems.missing.length === 0 && problems.duplicates.length === 0;

  const changeKind = (next: DatasetKind) => {
    setKind(next);
    setDraft(startDraft(choice, next));
  };

  return (
    <section className="column-chooser" aria-labelledby={titleId} data-testid="column-chooser">
      <h2 className="column-chooser__title" id={titleId} ref={heading} tabIndex={-1}>
        {t('title', { file })}
      </h2>
      <p className="column-chooser__intro">{t('intro')}</p>
      {choice.kinds.length > 1 && (
        <Field label={t('kind')} className="column-chooser__kind">
          <select
            data-testid="column-kind"
            value={kind}
            onChange={(e) => changeKind(e.target.value as DatasetKind)}
          >
            {choice.kinds.map((k) => (
              <option key={k.kind} value={k.kind}>
                {t(`kinds.${k.kind}`, { defaultValue: k.kind })}
              </option>
            ))}
          </select>
        </Field>
      )}
      <fieldset className="column-chooser__fields">
        <legend>{t('fieldsLegend')}</legend>
        {fields.map(({ field, required }) => (
          <Field
            key={`${kind}-${field}`}
            label={
              <>
                <span className="mono">{field}</span>{' '}
                <span className="column-chooser__need">({required ? t('required') : t('optional')})</span>
              </>
            }
            hint={t(`fields.${field}`, { defaultValue: '' }) || undefined}
          >
            <select
              data-testid={`column-for-${field}`}
              value={draft[field] ?? ''}
              required={required}
              onChange={(e) => setDraft({ ...draft, [field]: e.target.value })}
            >
              <option value="">{required ? t('choose') : t('none')}</option>
              {choice.columns.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </Field>
        ))}
      </fieldset>

      <div aria-live="polite" className="column-chooser__problems" data-testid="column-problems">
        {problems.missing.length > 0 && <p>{t('missing', { fields: problems.missing.join(', ') })}</p>}
        {problems.duplicates.map((d) => (
          <p key={d.column} className="column-chooser__duplicate">
            {t('duplicate', { column: d.column, fields: d.fields.join(', ') })}
          </p>
        ))}
      </div>

      {preview.fields.length > 0 && (
        <div className="table-wrap column-chooser__preview">
          <table data-testid="column-preview">
            <caption>{t('preview')}</caption>
            <thead>
              <tr>
                {preview.fields.map((f) => (
                  <th key={f} scope="col" className="mono">
                    {f}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {preview.rows.length === 0 ? (
                <tr>
                  <td colSpan={preview.fields.length}>{t('previewEmpty')}</td>
                </tr>
              ) : (
                preview.rows.map((row, i) => (
                  <tr key={i}>
                    {row.map((cell, j) => (
                      <td key={j} className="text">
                        {cell}
                      </td>
                    ))}
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      )}

      <div className="column-chooser__actions">
        <Button
          className="btn btn--primary"
          testId="column-import"
          disabled={!ready}
          onClick={() => onImport(draftMapping(draft))}
        >
          {t('importWith')}
        </Button>
        <Button className="btn btn--ghost" onClick={onCancel}>
          {t('cancel')}
        </Button>
      </div>

      {error.issues.length > 0 && (
        // Open when a mapping was tried: its problems are what to fix next.
        <details className="column-chooser__details" open={choice.mapping !== undefined}>
          <summary>{t('details', { count: error.issues.length })}</summary>
          <p className="text">{error.message}</p>
          <ul className="issue-list">
            {error.issues.map((issue, i) => (
              <li key={i} className="issue">
                <span className="issue__where">{locate(issue)}</span>
                <span className="issue__field">{issue.field ?? ''}</span>
                <span className="issue__message text">{issue.message}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
