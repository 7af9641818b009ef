// A dataset item as this protocol reads it: one response (pointwise dataset kind) or two
// (pairwise kind, each also judged alone in pointwise mode).
import type { Item } from '../../../shared/domain';
import { AppError } from '../host';
import { selectedProbes } from '../../../shared/protocols/bias-probes/probe-registry';

export interface BiasResponse {
  /** `response` (pointwise data) or `output_1` / `output_2`. */
  slot: string;
  text: string;
  /** The model that wrote it, where the dataset names it (pairwise `model_1`/`model_2`, pointwise `model`). */
  model?: string;
}

export interface BiasItem {
  id: number;
  sourceId: string;
  instruction: string;
  category: string | null;
  responses: BiasResponse[];
  /** Pairwise data: the better output (1 | 2). */
  label: 1 | 2 | null;
  reference: string | null;
  /** Pointwise data: a human score of the response, where the dataset has one. */
  humanScore: number | null;
}

/** `{ model }` where the dataset names it: a response without one reads as it always did. */
const modelOf = (v: unknown): { model?: string } => (typeof v === 'string' ? { model: v } : {});

export function biasItem(item: Item): BiasItem {
  const x = item.extra ?? {};
  if (item.output1 != null && item.output2 != null && item.label != null)
    return {
      id: item.id,
      sourceId: item.sourceId,
      instruction: item.instruction,
      category: item.subset,
      responses: [
        { slot: 'output_1', text: item.output1, ...modelOf(x.model_1) },
        { slot: 'output_2', text: item.output2, ...modelOf(x.model_2) },
      ],
      label: item.label,
      reference: null,
      humanScore: null,
    };
  if (typeof x.response === 'string')
    return {
      id: item.id,
      sourceId: item.sourceId,
      instruction: item.instruction,
      category: item.subset,
      responses: [{ slot: 'response', text: x.response, ...modelOf(x.model) }],
      label: null,
      reference: typeof x.reference === 'string' ? x.reference : null,
      humanScore: typeof x.human_score === 'number' ? x.human_score : null,
    };
  throw new AppError(
    'invalid_input',
    `dataset: item "${item.sourceId}" has no response to judge; bias probes need a pairwise dataset ` +
      '(instruction, output_1, output_2, label) or a pointwise one (id, instruction, response)',
    [{ file: 'config', field: 'dataset', message: 'bias probes need a pairwise or pointwise dataset' }],
  );
}

/** Pairwise mode and the pair-shown position probe need two responses per item. */
export function requirePairs(items: readonly BiasItem[], why: string): void {
  const single = items.find((i) => i.responses.length !== 2);
  if (single)
    throw new AppError(
      'invalid_input',
      `dataset: item "${single.sourceId}" has one response; ${why} needs a pairwise dataset (output_1, output_2, label)`,
      [{ file: 'config', field: 'mode', message: `${why} needs a pairwise dataset` }],
    );
}

/**
 * A probe that reads who wrote each response (self-preference) is refused on a dataset that names
 * none: it would measure nothing. Generating the answers with the judges is not offered yet.
 */
export function requireAnswerModels(items: readonly BiasItem[], opts: { probes: readonly string[] }): void {
  if (items.some((i) => i.responses.some((r) => r.model !== undefined))) return;
  const probe = selectedProbes(opts).find((p) => p.needsAnswerModels);
  if (!probe) return;
  throw new AppError(
    'invalid_input',
    `dataset: no item names the model that wrote its responses; the ${probe.id} probe ${probe.needsAnswerModels!.en}`,
    [
      {
        file: 'config',
        field: 'probes',
        message: `the ${probe.id} probe needs model_1 / model_2 in the dataset`,
      },
    ],
  );
}
