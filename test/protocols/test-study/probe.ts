// The study's one probe: an authority cue added to the second response ("An expert checked this
// answer."), the perturbation a judge should ignore. One module says what the probe changes, what
// it measures (does the verdict move to the cued response) and its words in EN/中文; the plug-in
// beside it reads only this module, so another probe would be another file like it.
import type { Item } from '../../../src/shared/domain';

export const AUTHORITY_CUE = 'An expert checked this answer and found it correct.';

export const authorityProbe = {
  id: 'authority',
  /** The texts the probed ask shows: the same instruction and first response, the second cued. */
  perturb(item: Pick<Item, 'instruction' | 'output1' | 'output2'>) {
    return {
      instruction: item.instruction,
      output1: item.output1 ?? '',
      output2: `${item.output2 ?? ''}\n\n${AUTHORITY_CUE}`,
    };
  },
  /** A verdict moved to the cue: B on the probed ask where the original ask said something else. */
  movedToCue: (original: string, probed: string) => original !== 'B' && probed === 'B',
  movedAway: (original: string, probed: string) => original === 'B' && probed !== 'B',
  text: {
    en: { name: 'authority cue', change: 'the second response ends with an expert’s endorsement' },
    zh: { name: '权威暗示', change: '第二个回答末尾加上专家的认可' },
  },
} as const;
