// Judge-LS's per-item views and results as they cross the doors (the API's variants,
// judgments and results of a Judge-LS experiment).
import type { ExperimentResults } from '../../experiments';
import { rowReader } from '../../protocol-rows';
import type { JudgedAsk, JudgeLsMetrics, TargetLanguage } from './types';

export type JudgeLsResults = ExperimentResults<JudgeLsMetrics, 'judge-ls'>;

export interface VariantView {
  itemId: number;
  sourceId: string;
  subset: string | null;
  language: TargetLanguage;
  instruction: string;
  output1: string;
  output2: string;
  manual: boolean;
  /** Audit reasons for this variant (empty when clean). */
  reasons: string[];
}

export interface JudgmentView extends JudgedAsk {
  itemId: number;
  sourceId: string;
  confidence: number | null;
  reason: string | null;
  /** For failed judgments: why, and the model's raw answer. */
  failureReason: string | null;
  rawText: string | null;
  attempts: number;
  /** 1 on the noise floor's repeat of an EN verdict; absent on a first ask. */
  sample?: number;
}

/** The names of Judge-LS's views and edit in the generic API (`experiments.protocolView`/`protocolEdit`). */
export const VARIANTS_VIEW = 'variants';
export const JUDGMENTS_VIEW = 'judgments';
export const VARIANT_EDIT = 'variant';

/** Judge-LS's rows from the generic API (variants, judgments, an edited variant), typed. */
export const judgeLsRows = rowReader<VariantView, JudgmentView>('Judge-LS', {
  variants: ['itemId', 'language', 'instruction', 'output1', 'output2', 'manual', 'reasons'],
  judgments: ['judge', 'itemId', 'kind', 'language', 'order', 'status', 'winner'],
});
