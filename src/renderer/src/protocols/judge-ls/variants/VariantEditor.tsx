import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CostEstimate } from '../../../../../shared/experiments';
import { judgeLsRows, VARIANT_EDIT, type VariantView } from '../../../../../shared/protocols/judge-ls/views';
import { ApiError, ErrorPanel, Field, getApi, toApiError } from '../../host';
import { JUDGE_LS_NAMESPACES } from '../i18n';

export interface EditOutcome {
  variant: VariantView;
  replanned: number;
  estimate: CostEstimate;
}

/** Edits one variant's three texts; Save marks it manual and re-plans the judgments that used it. */
export function VariantEditor({
  experimentId,
  variant,
  onSaved,
  onCancel,
}: {
  experimentId: number;
  variant: VariantView;
  onSaved: (outcome: EditOutcome) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation(JUDGE_LS_NAMESPACES);
  const [texts, setTexts] = useState({
    instruction: variant.instruction,
    output1: variant.output1,
    output2: variant.output2,
  });
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const changed =
    texts.instruction !== variant.instruction ||
    texts.output1 !== variant.output1 ||
    texts.output2 !== variant.output2;

  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      const r = await getApi().call('experiments.protocolEdit', {
        experimentId,
        edit: VARIANT_EDIT,
        fields: { itemId: variant.itemId, language: variant.language, ...texts },
      });
      onSaved({ replanned: r.replanned, estimate: r.estimate, variant: judgeLsRows.variant(r.row) });
    } catch (err) {
      setError(toApiError(err));
      setSaving(false);
    }
  };

  return (
    <form
      className="variant-editor"
      data-testid="variant-editor"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h3 className="section-title">{t('variants.editTitle', { language: variant.language })}</h3>
      {(['instruction', 'output1', 'output2'] as const).map((k) => (
        <Field key={k} label={t(`variants.fields.${k}`)}>
          <textarea
            data-testid={`edit-${k}`}
            rows={k === 'instruction' ? 4 : 8}
            value={texts[k]}
            onChange={(e) => setTexts((s) => ({ ...s, [k]: e.target.value }))}
          />
        </Field>
      ))}
      {error && <ErrorPanel title={t('variants.saveFailed')} error={error} />}
      <div className="variant-editor__actions">
        <button
          type="submit"
          className="btn btn--primary"
          data-testid="variant-save"
          disabled={saving || !changed}
        >
          {saving ? t('variants.saving') : t('variants.save')}
        </button>
        <button type="button" className="btn btn--ghost" onClick={onCancel} disabled={saving}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
