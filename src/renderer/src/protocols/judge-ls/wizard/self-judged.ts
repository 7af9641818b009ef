import { useWizard } from '../../host';
import { useJudgeLsDraft } from './state';

/**
 * Judges that are the translator itself (same provider and model): such a judge rates texts it
 * wrote, which can favour them (a confound the wizard warns about).
 */
export function useSelfJudged(): string[] {
  const { transform } = useJudgeLsDraft();
  const judges = useWizard((s) => s.draft.judges);
  const model = transform.model.trim();
  if (!model) return [];
  return judges
    .filter((j) => j.provider === transform.provider && j.model.trim() === model)
    .map((j) => j.label || j.model);
}
