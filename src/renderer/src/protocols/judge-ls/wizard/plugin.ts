import { batchCapable, type WizardPlugin } from '../../host';
import { judgeLsConfig, judgeLsDraft, validateTransform } from './draft';
import { SummaryLines } from './SummaryLines';
import { JudgeLsOptions } from './JudgeLsOptions';
import { TransformStep } from './TransformStep';

/** Judge-LS's wizard: a translation step, the tie-probe and interval options, and its config keys. */
export const judgeLsWizard: WizardPlugin = {
  steps: [
    {
      id: 'transform',
      label: 'wizard.steps.transform',
      View: TransformStep,
      validate: validateTransform,
      // `options` holds the templates (options.templates.*), edited on this step.
      fields: ['transform', 'options'],
    },
  ],
  OptionsFields: JudgeLsOptions,
  optionFields: ['tieProbes', 'noiseFloor', 'ci'],
  SummaryLines,
  providersInUse: (draft) => [judgeLsDraft(draft).transform.provider],
  batchProvidersInUse: (draft) => {
    const t = judgeLsDraft(draft).transform;
    return t.batch && batchCapable(t.provider, draft.providers) ? [t.provider] : [];
  },
  modelsInUse: (draft) => [judgeLsDraft(draft).transform.model],
  config: judgeLsConfig,
};
