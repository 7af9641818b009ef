// The wizard shell's prompt-template pieces, protocol-neutral: a protocol's default templates
// (fetched once), an editor for one template, and the live preview of the prompts the core
// would send with the current settings. Each protocol passes its own templates, texts and test
// ids; how an edit is stored (verbatim, or dropped when equal to the default) stays its own.
import { useEffect, useState, type ReactNode } from 'react';
import type { PromptPreview } from '../../../shared/experiments';
import { getApi, toApiError, type ApiError } from '../api';
import { Field } from '../components/Field';
import { buildConfig, type WizardDraft } from '../lib/experiment-config';
import { useWizard } from '../stores/wizard';

const PREVIEW_DEBOUNCE_MS = 400;

/** A protocol's default templates, fetched once, so the editors start from the real text. */
export function useProtocolDefaults(protocol: string): Record<string, string> {
  const [defaults, setDefaults] = useState<Record<string, string>>({});
  useEffect(() => {
    let live = true;
    getApi()
      .call('protocols.defaults', { protocol })
      .then((r) => live && setDefaults(r.templates))
      .catch(() => live && setDefaults({}));
    return () => {
      live = false;
    };
  }, [protocol]);
  return defaults;
}

export interface TemplateEditorProps {
  label: ReactNode;
  hint: ReactNode;
  error?: string;
  testId: string;
  rows: number;
  /** The draft's own text; undefined while the default is in use. */
  value: string | undefined;
  /** The default text, shown until edited. */
  fallback?: string;
  placeholder?: string;
  /** The text as typed; the protocol decides what it stores. */
  onChange: (text: string) => void;
  resetLabel: ReactNode;
  /** Back to the default (shown only while the draft has its own text). */
  onReset: () => void;
}

/** One template's text area with its default, its error and a reset button. */
export function TemplateEditor(p: TemplateEditorProps) {
  return (
    <div className="template-editor">
      <Field label={p.label} hint={p.hint} error={p.error}>
        <textarea
          className="mono"
          rows={p.rows}
          data-testid={p.testId}
          spellCheck={false}
          value={p.value ?? p.fallback ?? ''}
          placeholder={p.placeholder}
          onChange={(e) => p.onChange(e.target.value)}
        />
      </Field>
      {p.value !== undefined && (
        <button type="button" className="btn btn--small btn--ghost" onClick={p.onReset}>
          {p.resetLabel}
        </button>
      )}
    </div>
  );
}

/** Only what changes the prompts: typing an experiment name must not re-render the preview. */
function previewInput(draft: WizardDraft): string {
  // The name is not part of any prompt but the core checks it; never let it block a preview.
  return JSON.stringify({ ...buildConfig(draft), name: 'preview' });
}

type PreviewState =
  { status: 'loading' } | { status: 'done'; preview: PromptPreview } | { status: 'error'; error: ApiError };

export interface PromptPreviewText {
  title: string;
  loading: string;
  failed: string;
  /** The line above the prompts, naming the dataset item they are for. */
  item: (sourceId: string) => string;
  system: string;
  user: string;
  /** A card's title in the page's language (from its `labelKey`), else its English `label`. */
  label?: (view: PromptPreview['prompts'][number]) => string;
}

/**
 * The real prompts the core would send for the dataset's first item with the current settings
 * (rendered by the core itself, through `experiments.previewPrompts`), one card per prompt.
 */
export function PromptPreviewPanel({
  text,
  testId,
  cardTestId,
}: {
  text: PromptPreviewText;
  testId: string;
  cardTestId?: string;
}) {
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
    <section className="prompt-preview" data-testid={testId} aria-live="polite">
      <h3 className="wizard-step__subtitle">{text.title}</h3>
      {state.status === 'loading' && <p className="empty-note">{text.loading}</p>}
      {state.status === 'error' && (
        <p className="inline-error">
          {text.failed} {state.error.message}
        </p>
      )}
      {state.status === 'done' && (
        <>
          <p className="hint">{text.item(state.preview.sourceId)}</p>
          {state.preview.prompts.map((p) => (
            <details key={p.label} className="prompt-card" data-testid={cardTestId}>
              <summary>{text.label?.(p) ?? p.label}</summary>
              <h4 className="prompt-card__role">{text.system}</h4>
              <pre className="text prompt-card__text" dir="auto">
                {p.system}
              </pre>
              <h4 className="prompt-card__role">{text.user}</h4>
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
