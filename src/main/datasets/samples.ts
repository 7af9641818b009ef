import { join } from 'node:path';
import { resourcesDir } from '../base/paths';
import type { DatasetKind } from '../../shared/domain';

export interface Sample {
  id: string;
  name: string;
  file: string;
  itemCount: number;
  /** What the sample imports as, so a page can offer it to the studies that read its kind. */
  kind: DatasetKind;
  license: string;
}

/** Datasets shipped with the app, so a new user can start without a file of their own. */
export const SAMPLES: Sample[] = [
  {
    id: 'llmbar',
    name: 'LLMBar',
    file: 'samples/llmbar.jsonl',
    itemCount: 419,
    kind: 'pairwise',
    license: 'MIT (c) 2023 Princeton Natural Language Processing; see resources/samples/LLMBAR-LICENSE',
  },
  {
    // Four items of each subset (scripts/make-demo-sample.py): what "Try it without API keys" runs.
    id: 'llmbar-demo',
    name: 'LLMBar demo',
    file: 'samples/llmbar-demo.jsonl',
    itemCount: 20,
    kind: 'pairwise',
    license: 'MIT (c) 2023 Princeton Natural Language Processing; see resources/samples/LLMBAR-LICENSE',
  },
  {
    id: 'tydiqa',
    name: 'TyDi QA GoldP (en, ar, te)',
    file: 'samples/tydiqa-en-ar-te.jsonl',
    itemCount: 450,
    kind: 'qa',
    license:
      'Apache-2.0 (TyDi QA, Clark et al., TACL 2020); see resources/samples/TYDIQA-README.md and TYDIQA-LICENSE',
  },
  {
    // Human majority preferences on MT-Bench pairs, as LLMBar processed them (no ties): the bias
    // probes and human-agreement studies compare judges with people on it; annotation sets can
    // count the labels as the annotator "majority" (DESIGN.md section 5d).
    id: 'mtbench-human',
    name: 'MT-Bench human judgments (200 pairs)',
    file: 'samples/mtbench-human-200.jsonl',
    itemCount: 200,
    kind: 'pairwise',
    license:
      'MIT (c) 2023 Princeton Natural Language Processing (LLMBar); MT-Bench human judgments CC BY 4.0 (Zheng et al. 2023); see resources/samples/MTBENCH-HUMAN-README.md',
  },
];

export function samplePath(sample: Sample): string {
  return join(resourcesDir(), sample.file);
}
