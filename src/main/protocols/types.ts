// The shape every protocol (Judge-LS, reference sensitivity, bias probes) fills in.
//
// A protocol is pure: it never sends a request, reads the store or looks at the clock.
// The runner owns all of that and drives a protocol in four moves:
//   1. validate the protocol's options with `optionsSchema`;
//   2. for each stage in `stageOrder`, call `plan` with the items and whatever earlier stages
//      produced, send every task's `request` (the ledger dedups by request hash), and give
//      each answer's JSON to `parse`; a parse error means "ask again", then "record failed";
//   3. store what parsing produced (variants, judgments);
//   4. call `computeMetrics` with the stored records; it is a pure function of them, so
//      metrics can be recomputed at any time without touching a provider.
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { ChatRequestSpec } from '../providers/types';

/**
 * One request a protocol wants answered.
 *
 * `key` names the slot (what is being asked: which item, judge, language, order), not the
 * content: it is stable across re-plans, so re-planning after a crash, after adding a judge
 * or after extending the item set yields the same keys for the same slots and the runner
 * only adds the missing ones. The content is identified by the request's ledger hash; when
 * a slot's key is known but its request hash changed (a person edited a variant, a template
 * changed), the slot's earlier answer no longer applies.
 */
export interface ProtocolTask<Stage extends string = string, Meta = unknown> {
  key: string;
  /** The stage that planned the task; it selects the parser for the answer. */
  stage: Stage;
  request: ChatRequestSpec;
  /** Plain JSON data the runner needs to store the parsed answer in the right place. */
  meta: Meta;
}

/** What a parser returns: a value, or a reason the answer is unusable (the runner re-asks). */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** One step of a protocol: plans tasks from its input and parses their answers. */
export interface ProtocolStage<Input, Task extends ProtocolTask, Answer> {
  readonly name: Task['stage'];
  plan(input: Input): Task[];
  parse(json: unknown, task: Task): ParseResult<Answer>;
}

/**
 * A protocol. `Stages` is a record of stages by name; `stageOrder` says in which order they
 * run (a later stage plans from what earlier stages produced, e.g. judging needs variants).
 */
export interface Protocol<
  Options,
  Stages extends { [name: string]: ProtocolStage<never, ProtocolTask, unknown> },
  MetricsInput,
  Metrics,
> {
  /** The `protocol` value of an experiment config, e.g. 'judge-ls'. */
  readonly id: string;
  readonly title: string;
  /** Parses raw options (unknown keys are errors) and fills in defaults. */
  readonly optionsSchema: z.ZodType<Options>;
  readonly stageOrder: readonly (keyof Stages & string)[];
  readonly stages: Stages;
  computeMetrics(input: MetricsInput): Metrics;
}

/**
 * Joins key parts with ':'. '%' and ':' inside a part are percent-escaped, so two different
 * part lists can never give the same key (a judge label may contain ':').
 */
export function taskKey(...parts: (string | number)[]): string {
  return parts.map((p) => String(p).replace(/%/g, '%25').replace(/:/g, '%3A')).join(':');
}

/** sha256 (hex) of a prompt template's text, recorded with what the template produced. */
export function promptHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
