import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PromptPreview } from '../../../../shared/experiments';
import { getApi, toApiError, type ApiError } from '../../api';
import { Field } from '../../components/Field';
import { buildConfig } from '../../lib/experiment-config';
import { useWizard } from '../../stores/wizard';
import { useStepIssues } from '../../wizard/issues';
import { REF_SENS_ID, refSensDraft, TEMPLATE_KEYS, withRefSensDraft, type TemplateKey } from './draft';
import { REF_SENS_NAMESPACES } from './i18n';

const PREVIEW_DEBOUNCE_MS = 400;

function setTemplate(key: TemplateKey, text: string | undefined) {
  useWizard.getState().update((d) => {
    const own = refSensDraft(d);
    const templates = { ...(own.templates ?? {}) };
    if (text === undefined) delete templates[key];
    else templates[key] = text;
    return withRefSensDraft(d, { ...own, templates });
  });
}

/** The protocol's default templates, fetched once, so the editors start from the real text. */
function useDefaults(): Record<string, string> {
  const [defaults, setDefaults] = useState<Record<string, string>>({});
  useEffect(() => {
    let live = true;
    getApi()
      .call('protocols.defaults', { protocol: REF_SENS_ID })
      .then((r) => live && setDefaults(r.templates))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, []);
  return defaults;
}

type PreviewState =
  { status: 'loading' } | { status: 'done'; preview: PromptPreview } | { status: 'error'; error: ApiError };

/**
 * The prompts the core would send for the dataset's first question with the current templates
 * (the generator's, calibration's and each setting's), rendered by the core itself.
 */
function LivePreview() {
  const { t } = useTranslation(REF_SENS_NAMESPACES);
  const input = useWizard((s) => JSON.stringify({ ...buildConfig(s.draft), name: 'preview' }));
  const [state, setState] = useState<PreviewState>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      getApi()
        .call('experiments.previewPrompts', { config: JSON.parse(input) as unknown })
        .then((preview) => live && setState({ status: 'done', preview }))
        .catch((err) => live && setState({ status: 'error', error: toApiError(err) }));
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [input]);
  return (
    <section className="prompt-preview" data-testid="refsens-prompt-preview" aria-live="polite">
      <h3 className="wizard-step__subtitle">{t('wizard.prompts.preview')}</h3>
      {state.status === 'loading' && <p className="empty-note">{t('wizard.prompts.previewLoading')}</p>}
      {state.status === 'error' && (
        <p className="inline-error">
          {t('wizard.prompts.previewFailed')} {state.error.message}
        </p>
      )}
      {state.status === 'done' && (
        <>
          <p className="hint">{t('wizard.prompts.previewItem', { id: state.preview.sourceId })}</p>
          {[...state.preview.transform, ...state.preview.judge].map((p) => (
            <details key={p.label} className="prompt-card" data-testid="refsens-prompt-card">
              <summary>{p.label}</summary>
              <h4 className="prompt-card__role">{t('wizard.prompts.system')}</h4>
              <pre className="text prompt-card__text" dir="auto">
                {p.system}
              </pre>
              <h4 className="prompt-card__role">{t('wizard.prompts.user')}</h4>
              <pre className="text prompt-card__text" dir="auto">
                {p.user}
              </pre>
            </details>
          ))}
        </>
      )}
    </section>
  );
}

/** Editors for the six templates (defaults shown until edited) and the live preview. */
export function PromptsSection() {
  const { t } = useTranslation(REF_SENS_NAMESPACES);
  const defaults = useDefaults();
  const draft = useWizard((s) => s.draft);
  const templates = useMemo(() => refSensDraft(draft).templates ?? {}, [draft]);
  const issues = useStepIssues('generators');
  const err = (k: TemplateKey) => issues.find((i) => i.field === `templates.${k}`)?.message;
  const edited = Object.keys(templates).length > 0;
  return (
    <details className="disclosure" open={edited || undefined} data-testid="refsens-prompts">
      <summary>{t('wizard.prompts.title')}</summary>
      <p className="hint">{t('wizard.prompts.intro')}</p>
      {TEMPLATE_KEYS.map((k) => (
        <div key={k} className="template-editor">
          <Field
            label={t(`wizard.prompts.${k}`)}
            hint={templates[k] !== undefined ? t('wizard.prompts.custom') : t('wizard.prompts.default')}
            error={err(k)}
          >
            <textarea
              className="mono"
              rows={k.startsWith('judgeUser') ? 6 : 3}
              data-testid={`refsens-template-${k}`}
              spellCheck={false}
              value={templates[k] ?? defaults[k] ?? ''}
              onChange={(e) => setTemplate(k, e.target.value)}
            />
          </Field>
          {templates[k] !== undefined && (
            <button type="button" className="btn btn--ghost" onClick={() => setTemplate(k, undefined)}>
              {t('wizard.prompts.reset')}
            </button>
          )}
        </div>
      ))}
      <LivePreview />
    </details>
  );
}
