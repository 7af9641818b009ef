import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Field, useStepIssues, useWizard } from '../host';
import { refSensDraft, withRefSensDraft } from './draft';
import { REF_SENS_NAMESPACES } from './i18n';

// The core reads the file as sent (checked line by line, errors naming the file and line), so
// the browser only reads it as text; a page never names a server path.
const MAX_BYTES = 50 * 1024 * 1024;

function setAnswers(answers: { fileName: string; text: string } | null) {
  useWizard.getState().update((d) => withRefSensDraft(d, { ...refSensDraft(d), answers }));
}

/** Answers the researcher already has (JSONL, JSON or CSV), judged beside generated ones. */
export function AnswersFileField() {
  const { t } = useTranslation(REF_SENS_NAMESPACES);
  const draft = useWizard((s) => s.draft);
  const answers = useMemo(() => refSensDraft(draft).answers ?? null, [draft]);
  const issues = useStepIssues('generators');
  const [tooBig, setTooBig] = useState(false);
  const error = issues.find((i) => i.field === 'answers' || i.field.startsWith('answers.'))?.message;
  return (
    <>
      <Field
        label={t('wizard.answers.label')}
        hint={t('wizard.answers.hint')}
        error={tooBig ? t('wizard.answers.tooBig') : error}
      >
        <input
          type="file"
          accept=".jsonl,.json,.csv"
          data-testid="refsens-answers-file"
          data-config-key="answers"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (!file) return;
            setTooBig(file.size > MAX_BYTES);
            if (file.size > MAX_BYTES) return;
            const reader = new FileReader();
            reader.onload = () => setAnswers({ fileName: file.name, text: String(reader.result ?? '') });
            reader.readAsText(file);
          }}
        />
      </Field>
      {answers && (
        <p className="hint">
          <span className="chip" data-testid="refsens-answers-name">
            {answers.fileName}
          </span>{' '}
          <button type="button" className="btn btn--ghost" onClick={() => setAnswers(null)}>
            {t('wizard.answers.remove')}
          </button>
        </p>
      )}
    </>
  );
}
