import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CostEstimate } from '../../../../../shared/experiments';
import { judgeLsRows, VARIANT_EDIT, type VariantView } from '../../../../../shared/protocols/judge-ls/views';
import { Field, getApi } from '../../host';
import { EditForm, useEditSave } from '../../../kits/EditForm';
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
  const changed =
    texts.instruction !== variant.instruction ||
    texts.output1 !== variant.output1 ||
    texts.output2 !== variant.output2;
  const { saving, error, save } = useEditSave(
    () =>
      getApi().call('experiments.protocolEdit', {
        experimentId,
        edit: VARIANT_EDIT,
        fields: { itemId: variant.itemId, language: variant.language, ...texts },
      }),
    (r) => onSaved({ replanned: r.replanned, estimate: r.estimate, variant: judgeLsRows.variant(r.row) }),
  );

  return (
    <EditForm
      className="variant-editor"
      testId="variant-editor"
      saveTestId="variant-save"
      onSave={() => void save()}
      onCancel={onCancel}
      saving={saving}
      canSave={changed}
      error={error}
      words={{
        saveFailed: t('variants.saveFailed'),
        save: t('variants.save'),
        saving: t('variants.saving'),
        cancel: t('common.cancel'),
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
    </EditForm>
  );
}
