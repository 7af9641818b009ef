import { batchCapable, type WizardPlugin } from '../../host';
import { extraCalls, studyStep } from '../../../kits/study-plugin';
import { judgeLsConfig, judgeLsDraft, validateTransform } from './draft';
import { SummaryLines } from './SummaryLines';
import { JudgeLsOptions } from './JudgeLsOptions';
import { TransformStep } from './TransformStep';

/** Judge-LS's wizard: a translation step, the tie-probe and interval options, and its config keys. */
export const judgeLsWizard: WizardPlugin = {
  steps: [
    studyStep({
      id: 'transform',
      View: TransformStep,
      validate: validateTransform,
      // `options` holds the templates (options.templates.*), edited on this step.
      fields: ['transform', 'options'],
    }),
  ],
  OptionsFields: JudgeLsOptions,
  optionFields: ['tieProbes', 'noiseFloor', 'ci'],
  SummaryLines,
  ...extraCalls((draft) => [judgeLsDraft(draft).transform]),
  batchProvidersInUse: (draft) => {
    const t = judgeLsDraft(draft).transform;
    return t.batch && batchCapable(t.provider, draft.providers) ? [t.provider] : [];
  },
  config: judgeLsConfig,
};
