import { useTranslation } from 'react-i18next';
import { Breadcrumb } from '../kits/PageFrame';
import type { ComponentType } from 'react';
import { stepOfField, validateStep, wizardPluginOf } from '../lib/experiment-config';
import { navigate, routeHref } from '../stores/route';
import { useWizard } from '../stores/wizard';
import { DatasetStep } from './DatasetStep';
import { useStepIssues } from './issues';
import { JudgesStep } from './JudgesStep';
import { OptionsStep } from './OptionsStep';
import { ProtocolStep } from './ProtocolStep';
import { useWizardSteps } from './steps';
import { SummaryStep } from './SummaryStep';
import { Button } from '../components/Button';

const GENERIC_VIEWS: Record<string, ComponentType> = {
  dataset: DatasetStep,
  protocol: ProtocolStep,
  judges: JudgesStep,
  options: OptionsStep,
  summary: SummaryStep,
};

function Stepper() {
  const { t } = useTranslation();
  const step = useWizard((s) => s.step);
  const goTo = useWizard((s) => s.goTo);
  const configError = useWizard((s) => s.configError);
  const draft = useWizard((s) => s.draft);
  const steps = useWizardSteps();
  const current = steps.findIndex((s) => s.id === step);
  const withProblems = new Set((configError?.issues ?? []).map((i) => stepOfField(i.field, draft)));
  return (
    <ol className="stepper" aria-label={t('wizard.stepsLabel')}>
      {steps.map(({ id: s, label }, i) => (
        <li
          key={s}
          className={`stepper__step${i === current ? ' stepper__step--current' : ''}${i < current ? ' stepper__step--done' : ''}${withProblems.has(s) ? ' stepper__step--problem' : ''}`}
        >
          <Button
            className="stepper__button"
            aria-current={i === current ? 'step' : undefined}
            onClick={() => goTo(s)}
          >
            <span className="stepper__n" aria-hidden="true">
              {withProblems.has(s) ? '!' : i + 1}
            </span>
            <span className="stepper__label">{label}</span>
          </Button>
        </li>
      ))}
    </ol>
  );
}

export function NewExperimentPage() {
  const { t } = useTranslation();
  const step = useWizard((s) => s.step);
  const next = useWizard((s) => s.next);
  const back = useWizard((s) => s.back);
  const reset = useWizard((s) => s.reset);
  const createPhase = useWizard((s) => s.createPhase);
  const estimateReady = useWizard((s) => s.estimate.status === 'done');
  // Price fields are checked as typed; an invalid one must be fixed before anything is created.
  const summaryValid = useWizard((s) => validateStep('summary', s.draft).length === 0);
  const createAndStart = useWizard((s) => s.createAndStart);
  const keysMissing = useWizard((s) => (s.missingKeys?.length ?? 0) > 0);
  const issues = useStepIssues(step);
  const View = useWizard(
    (s) => GENERIC_VIEWS[step] ?? wizardPluginOf(s.draft)?.steps.find((x) => x.id === step)?.View,
  );
  const steps = useWizardSteps();
  const first = step === steps[0].id;
  const last = step === steps[steps.length - 1].id;

  const onCreate = async () => {
    const id = await createAndStart();
    if (id === null) return;
    reset();
    navigate({ name: 'experiment', experimentId: id });
  };

  return (
    <div className="page wizard">
      <Breadcrumb current={t('wizard.title')}>
        <a href={routeHref({ name: 'experiments' })}>{t('experiments.title')}</a>
      </Breadcrumb>
      <header className="page__header page__header--compact">
        <h1 className="page__title">{t('wizard.title')}</h1>
        <div className="page__tools">
          <Button className="btn btn--ghost btn--small" onClick={reset}>
            {t('wizard.startOver')}
          </Button>
        </div>
      </header>
      <Stepper />
      {View && <View />}
      <footer className="wizard__footer">
        {issues.length > 0 && (
          <p className="inline-error wizard__problems" role="alert">
            {t('wizard.fixProblems', { count: issues.length })}
          </p>
        )}
        <Button className="btn" testId="wizard-back" onClick={back} disabled={first}>
          ← {t('wizard.back')}
        </Button>
        {last ? (
          <Button
            className="btn btn--primary"
            testId="create-and-start"
            disabled={!estimateReady || !summaryValid || keysMissing || createPhase !== 'idle'}
            onClick={() => void onCreate()}
          >
            {createPhase === 'creating'
              ? t('wizard.creating')
              : createPhase === 'starting'
                ? t('wizard.starting')
                : t('wizard.createAndStart')}
          </Button>
        ) : (
          <Button className="btn btn--primary" testId="wizard-next" onClick={() => next()}>
            {t('wizard.next')} →
          </Button>
        )}
      </footer>
    </div>
  );
}
