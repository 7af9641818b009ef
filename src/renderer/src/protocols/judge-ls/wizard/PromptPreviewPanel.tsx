import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PromptPreview } from '../../../../../shared/experiments';
import { ApiError, getApi, toApiError } from '../../../api';
import { buildConfig, type WizardDraft } from '../../../lib/experiment-config';
import { useWizard } from '../../../stores/wizard';
import { JUDGE_LS_NAMESPACES } from '../i18n';

const PREVIEW_DEBOUNCE_MS = 400;

/** Only what changes the prompts: typing a judge label must not re-render the preview. */
function previewInput(draft: WizardDraft): string {
  const config = buildConfig(draft);
  // The name is not part of any prompt but the core checks it; never let it block a preview.
  return JSON.stringify({ ...config, name: 'preview' });
}

type PreviewState =
  { status: 'loading' } | { status: 'done'; preview: PromptPreview } | { status: 'error'; error: ApiError };

/** The real prompts the core would send for the dataset's first item, from the current settings. */
export function PromptPreviewPanel() {
  const { t } = useTranslation(JUDGE_LS_NAMESPACES);
  const input = useWizard((s) => previewInput(s.draft));
  const [state, setState] = useState<PreviewState>({ status: 'loading' });

  useEffect(() => {
    let live = true;
    setState((s) => (s.status === 'done' ? s : { status: 'loading' }));
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
    <section className="prompt-preview" data-testid="prompt-preview" aria-live="polite">
      <h3 className="wizard-step__subtitle">{t('wizard.transform.preview')}</h3>
      {state.status === 'loading' && <p className="empty-note">{t('wizard.transform.previewLoading')}</p>}
      {state.status === 'error' && (
        <p className="inline-error">
          {t('wizard.transform.previewFailed')} {state.error.message}
        </p>
      )}
      {state.status === 'done' && (
        <>
          <p className="hint">{t('wizard.transform.previewItem', { id: state.preview.sourceId })}</p>
          {[...state.preview.transform, ...state.preview.judge].map((p) => (
            <details key={p.label} className="prompt-card">
              <summary>{p.label}</summary>
              <h4 className="prompt-card__role">{t('wizard.transform.system')}</h4>
              <pre className="text prompt-card__text">{p.system}</pre>
              <h4 className="prompt-card__role">{t('wizard.transform.user')}</h4>
              <pre className="text prompt-card__text">{p.user}</pre>
            </details>
          ))}
        </>
      )}
    </section>
  );
}
