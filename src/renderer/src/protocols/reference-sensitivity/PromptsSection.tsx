import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { PromptPreviewPanel, TemplateEditor, useProtocolDefaults, useStepIssues, useWizard } from '../host';
import { REF_SENS_ID, refSensDraft, TEMPLATE_KEYS, withRefSensDraft, type TemplateKey } from './draft';
import { REF_SENS_NAMESPACES } from './i18n';

function setTemplate(key: TemplateKey, text: string | undefined) {
  useWizard.getState().update((d) => {
    const own = refSensDraft(d);
    const templates = { ...(own.templates ?? {}) };
    if (text === undefined) delete templates[key];
    else templates[key] = text;
    return withRefSensDraft(d, { ...own, templates });
  });
}

/**
 * Editors for the six templates (defaults shown until edited; an edit is kept as typed) and the
 * live preview of the generator's, calibration's and each setting's prompts.
 */
export function PromptsSection() {
  const { t } = useTranslation(REF_SENS_NAMESPACES);
  const defaults = useProtocolDefaults(REF_SENS_ID);
  const draft = useWizard((s) => s.draft);
  const templates = useMemo(() => refSensDraft(draft).templates ?? {}, [draft]);
  const issues = useStepIssues('generators');
  const err = (k: TemplateKey) => issues.find((i) => i.field === `templates.${k}`)?.message;
  const edited = Object.keys(templates).length > 0;
  return (
    <details
      className="disclosure"
      open={edited || undefined}
      data-testid="refsens-prompts"
      data-config-key="templates"
    >
      <summary>{t('wizard.prompts.title')}</summary>
      <p className="hint">{t('wizard.prompts.intro')}</p>
      {TEMPLATE_KEYS.map((k) => (
        <TemplateEditor
          key={k}
          label={t(`wizard.prompts.${k}`)}
          hint={templates[k] !== undefined ? t('wizard.prompts.custom') : t('wizard.prompts.default')}
          error={err(k)}
          testId={`refsens-template-${k}`}
          rows={k.startsWith('judgeUser') ? 6 : 3}
          value={templates[k]}
          fallback={defaults[k]}
          onChange={(text) => setTemplate(k, text)}
          resetLabel={t('wizard.prompts.reset')}
          onReset={() => setTemplate(k, undefined)}
        />
      ))}
      <PromptPreviewPanel
        testId="refsens-prompt-preview"
        cardTestId="refsens-prompt-card"
        text={{
          title: t('wizard.prompts.preview'),
          loading: t('wizard.prompts.previewLoading'),
          failed: t('wizard.prompts.previewFailed'),
          item: (id) => t('wizard.prompts.previewItem', { id }),
          system: t('wizard.prompts.system'),
          user: t('wizard.prompts.user'),
          label: (v) =>
            v.labelKey
              ? t(`wizard.prompts.previewLabels.${v.labelKey}`, { ...v.labelParams, defaultValue: v.label })
              : v.label,
        }}
      />
    </details>
  );
}
