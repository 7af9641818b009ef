// How a study registers itself in the renderer, with the conventions every study follows written
// once: its title and description are `protocol.title` / `protocol.description` in its own
// namespace, a wizard step's label is `wizard.steps.<id>`, and the providers and models it calls
// besides the judges (a rewriter, a translator, generators) come from one list, so the two
// answers (which presets to set up, which models to check) can never disagree.
import type { PresetId } from '../lib/providers';
import type { WizardDraft } from '../lib/wizard-draft';
import type { RendererProtocol, WizardPlugin, WizardStepPlugin } from '../protocols/registry';

/** A study's plug-in: its strings (`i18n`) are where its title and description are. */
export function studyPlugin(
  p: Omit<RendererProtocol, 'title' | 'description' | 'i18n'> & Required<Pick<RendererProtocol, 'i18n'>>,
): RendererProtocol {
  return { title: 'protocol.title', description: 'protocol.description', ...p };
}

/** A wizard step labelled `wizard.steps.<id>` in the study's namespace. */
export function studyStep(step: Omit<WizardStepPlugin, 'label'>): WizardStepPlugin {
  return { label: `wizard.steps.${step.id}`, ...step };
}

/** A model the study calls besides the judges. */
export interface ExtraCall {
  provider: PresetId;
  model: string;
}

/** `providersInUse` and `modelsInUse` of a wizard plug-in, read from the one list of calls. */
export function extraCalls(
  calls: (draft: WizardDraft) => readonly ExtraCall[],
): Required<Pick<WizardPlugin, 'providersInUse' | 'modelsInUse'>> {
  return {
    providersInUse: (draft) => calls(draft).map((c) => c.provider),
    modelsInUse: (draft) => calls(draft).map((c) => c.model),
  };
}
