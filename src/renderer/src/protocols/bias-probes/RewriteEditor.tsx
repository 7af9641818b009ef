import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REWRITE_EDIT } from '../../../../shared/protocols/bias-probes/views';
import { Field, useApi } from '../host';
import { EditForm, useEditSave } from '../../kits/EditForm';
import { BIAS_NAMESPACES } from './i18n';

/** Which rewrite an edit replaces: a response's variant, or a paraphrase of the judging instructions. */
export type RewriteTarget =
  { itemId: string; response: string; variant: string } | { variant: string; paraphrase: number };

export interface RewriteSaved {
  /** The edited row as the core returns it (a variant row, or the paraphrase audited again). */
  row: unknown;
  replanned: number;
}

/**
 * Replaces one rewrite's text by hand and names who did it: Save stores the edit, and the core
 * audits the text again and re-plans the judge calls that showed the old text (their answers stay
 * in the ledger); the next run asks only those.
 */
export function RewriteEditor({
  experimentId,
  target,
  text,
  editedBy,
  onSaved,
  onCancel,
}: {
  experimentId: number;
  target: RewriteTarget;
  text: string;
  /** The last name typed in this page, so a reviewer editing several texts types it once. */
  editedBy: string;
  onSaved: (saved: RewriteSaved, editedBy: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation(BIAS_NAMESPACES);
  const api = useApi();
  const [draft, setDraft] = useState(text);
  const [by, setBy] = useState(editedBy);
  const ready = draft.trim() !== '' && draft !== text && by.trim() !== '';
  const { saving, error, save } = useEditSave(
    () =>
      api.call('experiments.protocolEdit', {
        experimentId,
        edit: REWRITE_EDIT,
        fields: { ...target, text: draft, editedBy: by.trim() },
      }),
    (r) => onSaved({ row: r.row, replanned: r.replanned }, by.trim()),
  );

  return (
    <EditForm
      className="bias-editor"
      testId="bias-rewrite-editor"
      saveTestId="bias-edit-save"
      onSave={() => void save()}
      onCancel={onCancel}
      saving={saving}
      canSave={ready}
      error={error}
      words={{
        saveFailed: t('results.browser.saveFailed'),
        save: t('results.browser.save'),
        saving: t('results.browser.saving'),
        cancel: t('results.browser.cancel'),
      }}
    >
      <Field label={t('results.browser.editText')}>
        <textarea
          data-testid="bias-edit-text"
          rows={8}
          dir="auto"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
        />
      </Field>
      <Field label={t('results.browser.editedBy')} hint={t('results.browser.editedByHint')}>
        <input data-testid="bias-edit-by" value={by} onChange={(e) => setBy(e.target.value)} />
      </Field>
    </EditForm>
  );
}
