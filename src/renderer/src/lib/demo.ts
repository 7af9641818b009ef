// "Try it without API keys": a wizard draft for a bundled sample, with the built-in simulated
// provider as judges and transformer. Generic: the protocol's own draft follows the first judge
// (its provider's transformModel), as it does for every preset.
import { defaultExperimentName, initialDraft, newJudge, type WizardDraft } from './experiment-config';
import { draftFromPreset, SIMULATED_MODELS } from './providers';

export function demoDraft(datasetId: number, now = new Date()): WizardDraft {
  const base = initialDraft();
  const strong = {
    ...newJudge('simulated', 'sim-judge-strong'),
    label: 'Simulated judge A',
    labelEdited: true,
  };
  // Judge B flips each verdict on 20 % of its asks (`-flip20`), so the demo shows a noise floor and
  // self-consistency's instability rather than a judge that never disagrees with itself.
  const weak = {
    ...newJudge('simulated', 'sim-judge-weak-flip20'),
    label: 'Simulated judge B',
    labelEdited: true,
  };
  const free = { input: '0', cachedInput: '0', output: '0' };
  return {
    ...base,
    datasetId,
    // The demo's sample is LLMBar pairs.
    datasetKind: 'pairwise',
    judges: [strong, weak],
    providers: { simulated: draftFromPreset('simulated') },
    // The demo sample is small (20 items, about 360 calls): all of it, done in under a minute.
    limit: '',
    name: defaultExperimentName('Simulated demo', now),
    nameEdited: true,
    // Simulated calls cost nothing; priced at 0 so the estimate does not warn about unknown models.
    prices: Object.fromEntries(SIMULATED_MODELS.map((m) => [m, free])),
  };
}
