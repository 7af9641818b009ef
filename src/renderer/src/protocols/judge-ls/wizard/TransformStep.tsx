import { useTranslation } from 'react-i18next';
import {
  batchCapable,
  Field,
  presetOf,
  PromptPreviewPanel,
  ProviderCard,
  TemplateEditor,
  useModelSuggestions,
  useProtocolDefaults,
  useStepIssues,
  useWizard,
} from '../../host';
import { TARGET_LANGUAGES } from '../../../../../shared/protocols/judge-ls/choice';
import { targetName } from '../../../../../shared/protocols/judge-ls/languages';
import { ModelInput, ProviderSelect, WizardStepFrame } from '../../../kits/WizardStep';
import {
  ALLOWED_PLACEHOLDERS,
  REQUIRED_PLACEHOLDERS,
  parseOtherLanguages,
  TEMPLATE_KEYS,
  templateField,
  type TemplateKey,
} from './draft';
import {
  setLanguage,
  setOtherLanguages,
  setVerifyModel,
  setTemplate,
  setTransformBatch,
  setTransformModel,
  setTransformProvider,
  useJudgeLsDraft,
} from './state';
import { JUDGE_LS_NAMESPACES } from '../i18n';
import { useSelfJudged } from './self-judged';
import { CheckLabel } from '../../../kits/CheckLabel';

/** `{{instruction}}*, {{target_language}}`: code tokens, the same in every UI language. */
function placeholderList(field: TemplateKey): string {
  const list = ALLOWED_PLACEHOLDERS[field];
  if (list.length === 0) return '—';
  return list.map((p) => `{{${p}}}${REQUIRED_PLACEHOLDERS[field].includes(p) ? '*' : ''}`).join(', ');
}

function JudgeLsTemplateEditor({
  field,
  error,
  fallback,
}: {
  field: TemplateKey;
  error?: string;
  fallback?: string;
}) {
  const { t } = useTranslation(JUDGE_LS_NAMESPACES);
  const value = useJudgeLsDraft().templates[field];
  const custom = value !== undefined;
  return (
    <TemplateEditor
      label={t(`wizard.templates.${field}`)}
      hint={custom ? t('wizard.templates.customHint') : t('wizard.templates.defaultHint')}
      error={error}
      testId={`template-${field}`}
      rows={custom || fallback ? 8 : 2}
      value={value}
      fallback={fallback}
      placeholder={t('wizard.templates.placeholder', { placeholders: placeholderList(field) })}
      // Text equal to the default is the default: only real edits are sent with the config.
      onChange={(text) => setTemplate(field, text === '' || text === fallback ? undefined : text)}
      resetLabel={t('wizard.templates.reset')}
      onReset={() => setTemplate(field, undefined)}
    />
  );
}

export function TransformStep() {
  const { t, i18n } = useTranslation(JUDGE_LS_NAMESPACES);
  const defaults = useProtocolDefaults('judge-ls');
  const { transform, templates } = useJudgeLsDraft();
  const judgesUse = useWizard((s) => s.draft.judges.some((j) => j.provider === transform.provider));
  const providers = useWizard((s) => s.draft.providers);
  const hasCustomTemplates = Object.keys(templates).length > 0;
  const suggestions = useModelSuggestions(transform.provider, presetOf(transform.provider).models);
  const selfJudged = useSelfJudged();
  const setProvider = setTransformProvider;
  const setModel = setTransformModel;
  const issues = useStepIssues('transform');
  const err = (f: string) => issues.find((i) => i.field === f)?.message;
  const templateErrors = TEMPLATE_KEYS.map((k) => err(templateField(k)));
  const otherIssues = issues.filter(
    (i) =>
      !['transform.provider', 'transform.model', 'transform.languages', 'transform.otherLanguages'].includes(
        i.field,
      ) &&
      !TEMPLATE_KEYS.some((k) => templateField(k) === i.field) &&
      !i.field.startsWith('providers.'),
  );

  return (
    <WizardStepFrame title={t('wizard.transform.title')} intro={t('wizard.transform.intro')}>
      <div className="form-grid">
        <ProviderSelect
          label={t('wizard.transform.provider')}
          testId="transform-provider"
          error={err('transform.provider')}
          value={transform.provider}
          onChange={setProvider}
        />
        <ModelInput
          label={t('wizard.transform.model')}
          testId="transform-model"
          list="transform-models"
          error={err('transform.model')}
          value={transform.model}
          onChange={setModel}
        />
        <datalist id="transform-models">
          {suggestions.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
        {batchCapable(transform.provider, providers) && (
          <CheckLabel
            className="check"
            title={t('wizard.judges.batchHint', { ns: 'translation' })}
            testId="transform-batch"
            checked={transform.batch ?? false}
            onChange={setTransformBatch}
            label={t('wizard.judges.batch', { ns: 'translation' })}
          />
        )}
      </div>
      {selfJudged.length > 0 && (
        <p className="notice notice--warn" role="note" data-testid="translator-is-judge">
          {t('wizard.transform.selfJudged', { judges: selfJudged.join(', ') })}
        </p>
      )}
      {!judgesUse && <ProviderCard name={transform.provider} step="transform" model={transform.model} />}

      <fieldset className="checks">
        <legend className="field__label">{t('wizard.transform.languages')}</legend>
        {TARGET_LANGUAGES.map((lang) => (
          <CheckLabel
            key={lang}
            className="check"
            gap
            testId={`language-${lang}`}
            checked={transform.languages[lang]}
            onChange={(on) => setLanguage(lang, on)}
            label={
              <span>
                <strong>{lang}</strong> — {t(`wizard.transform.lang${lang}`)}
              </span>
            }
          />
        ))}
        {err('transform.languages') && (
          <p className="inline-error" role="alert">
            {err('transform.languages')}
          </p>
        )}
      </fieldset>
      <div className="form-grid">
        <Field label={t('wizard.transform.otherLanguages')} error={err('transform.otherLanguages')}>
          <input
            type="text"
            data-testid="transform-other-languages"
            value={transform.otherLanguages ?? ''}
            placeholder={t('wizard.transform.otherLanguagesPlaceholder')}
            onChange={(e) => setOtherLanguages(e.target.value)}
          />
        </Field>
        <Field label={t('wizard.transform.verifyModel')}>
          <input
            type="text"
            data-testid="transform-verify-model"
            value={transform.verifyModel ?? ''}
            onChange={(e) => setVerifyModel(e.target.value)}
          />
        </Field>
      </div>
      <p className="hint" data-testid="transform-other-languages-hint">
        {t('wizard.transform.otherLanguagesHint')}{' '}
        {parseOtherLanguages(transform.otherLanguages)
          .codes.map((c) => targetName(c, i18n.language === 'zh' ? 'zh' : 'en'))
          .join(' · ')}
      </p>

      <details className="disclosure" open={hasCustomTemplates || templateErrors.some(Boolean) || undefined}>
        <summary>{t('wizard.templates.title')}</summary>
        <p className="hint">{t('wizard.templates.intro')}</p>
        {TEMPLATE_KEYS.map((k, i) => (
          <JudgeLsTemplateEditor key={k} field={k} error={templateErrors[i]} fallback={defaults[k]} />
        ))}
      </details>

      {otherIssues.map((i) => (
        <p key={i.field + i.message} className="inline-error" role="alert">
          <span className="mono">{i.field}</span>: {i.message}
        </p>
      ))}

      <PromptPreviewPanel
        testId="prompt-preview"
        text={{
          title: t('wizard.transform.preview'),
          loading: t('wizard.transform.previewLoading'),
          failed: t('wizard.transform.previewFailed'),
          item: (id) => t('wizard.transform.previewItem', { id }),
          system: t('wizard.transform.system'),
          user: t('wizard.transform.user'),
          label: (v) =>
            v.labelKey
              ? t(`wizard.transform.previewLabels.${v.labelKey}`, { ...v.labelParams, defaultValue: v.label })
              : v.label,
        }}
      />
    </WizardStepFrame>
  );
}
