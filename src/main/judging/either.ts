// Studies whose config picks the question (pairwise or a pointwise score) parse the verdict of
// the question each task asked: its meta says which (`mode`), and the scale a score must be on.
import type { ParseResult } from './answer';
import { parsePairwiseVerdict, type PairwiseVerdict } from './pairwise';
import { parseScoreVerdict, type ScoreVerdict } from './score';

export function parseAskedVerdict(
  json: unknown,
  asked: { mode: 'pairwise' | 'pointwise'; scale: number },
): ParseResult<PairwiseVerdict> | ParseResult<ScoreVerdict> {
  return asked.mode === 'pairwise' ? parsePairwiseVerdict(json) : parseScoreVerdict(json, asked.scale);
}
