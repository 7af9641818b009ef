// The task a protocol plans (see ./plugin.ts for the plug-in interface), a parser's result,
// and the helpers that name slots and templates.
import { createHash } from 'node:crypto';
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

/** What a parser returns (the judging kit's): a value, or a reason the answer is unusable (the runner re-asks). */
export type { ParseResult } from '../judging/answer';

/**
 * Joins key parts with ':'. '%' and ':' inside a part are percent-escaped, so two different
 * part lists can never give the same key (a judge label may contain ':').
 */
export function taskKey(...parts: (string | number)[]): string {
  return parts.map(keyPart).join(':');
}

// Most parts (labels, ids, numbers) have neither character: they are used as they are, without
// two regular-expression passes each (a plan of 92,000 tasks made 900,000 of them).
function keyPart(p: string | number): string {
  const s = String(p);
  return s.includes('%') || s.includes(':') ? s.replace(/%/g, '%25').replace(/:/g, '%3A') : s;
}

/** sha256 (hex) of a prompt template's text, recorded with what the template produced. */
export function promptHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
