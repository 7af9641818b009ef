import { z } from 'zod';
import { ProviderError } from './errors';
import type { ChatRequestSpec, ResponseSchema, Usage } from './types';

// Structured answers (DESIGN.md section 6). Where the endpoint cannot enforce a schema,
// the schema is described in the prompt and the JSON object is dug out of the text.

/** The instruction appended to the system prompt when the schema is not enforced by the API. */
export function schemaInstruction(response: ResponseSchema): string {
  const about = response.description ? ` (${response.description})` : '';
  return (
    `Answer with one JSON object named "${response.name}"${about} and nothing else. ` +
    `It must match this JSON Schema exactly:\n${JSON.stringify(response.schema)}`
  );
}

export function systemWithSchema(spec: ChatRequestSpec): string | undefined {
  if (!spec.response) return spec.system;
  const instruction = schemaInstruction(spec.response);
  return spec.system ? `${spec.system}\n\n${instruction}` : instruction;
}

/**
 * Finds the one JSON object in a model's text: the whole text, a ```json fence, or the
 * first balanced {...} in prose. Returns undefined when there is none.
 */
export function extractJsonObject(text: string): unknown {
  const candidates: string[] = [text.trim()];
  const fence = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/.exec(text);
  if (fence) candidates.push(fence[1].trim());
  const balanced = firstBalancedObject(text);
  if (balanced) candidates.push(balanced);
  for (const c of candidates) {
    if (!c.startsWith('{')) continue;
    try {
      const value: unknown = JSON.parse(c);
      if (value && typeof value === 'object' && !Array.isArray(value)) return value;
    } catch {
      // try the next candidate
    }
  }
  return undefined;
}

function firstBalancedObject(text: string): string | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  return undefined;
}

/**
 * The members of a JSON object that were written out whole before the answer was cut off at
 * the output limit: `{"winner": "A", "confidence": 0.8, "reason": "The fir` reads as
 * `{"winner": "A", "confidence": 0.8}`. A value still open where the text stops (a string
 * without its closing quote, a number that might have had more digits) is left out, with its
 * key, so nothing read here is a guess; nested objects and arrays keep their whole members
 * too. Undefined when the text holds no object or not one whole member.
 */
export function cutOffObject(text: string): Record<string, unknown> | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  const stack: string[] = [];
  // The end of the last whole value, and the brackets that close what was open there.
  let safe = -1;
  let closers = '';
  let inString = false;
  let stringIsKey = false;
  let escaped = false;
  let inLiteral = false;
  let expectKey = false;
  const valueDone = (end: number) => {
    safe = end;
    closers = stack
      .map((c) => (c === '{' ? '}' : ']'))
      .reverse()
      .join('');
  };
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') {
        inString = false;
        if (!stringIsKey) valueDone(i + 1);
      }
      continue;
    }
    if (inLiteral) {
      if (!/[\s,\]}]/.test(ch)) continue;
      inLiteral = false;
      valueDone(i);
    }
    if (ch === '"') {
      inString = true;
      stringIsKey = expectKey && stack.at(-1) === '{';
      expectKey = false;
    } else if (ch === '{' || ch === '[') {
      stack.push(ch);
      expectKey = ch === '{';
      valueDone(i + 1);
    } else if (ch === '}' || ch === ']') {
      stack.pop();
      // A whole object after all (trailing text cut instead): extractJsonObject's business.
      if (!stack.length) return undefined;
      expectKey = false;
      valueDone(i + 1);
    } else if (ch === ',') expectKey = stack.at(-1) === '{';
    else if (ch !== ':' && !/\s/.test(ch)) inLiteral = true;
  }
  if (safe < 0) return undefined;
  try {
    const value: unknown = JSON.parse(text.slice(start, safe) + closers);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
    return Object.keys(value).length ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A stored answer that was read from the whole members of a cut-off object (its text holds no
 * whole JSON object): counted apart, as answers read from a cut-off answer.
 */
export function readFromCutOff(text: string | null, json: unknown): boolean {
  if (text === null || !json || typeof json !== 'object' || Array.isArray(json)) return false;
  return extractJsonObject(text) === undefined && cutOffObject(text) !== undefined;
}

// Requests rebuilt from the ledger each carry their own copy of the schema object, so the
// compiled validators are shared by schema text (a run uses a handful of schemas).
const bySchemaObject = new WeakMap<Record<string, unknown>, z.ZodType>();
const bySchemaText = new Map<string, z.ZodType>();
const MAX_CACHED_SCHEMAS = 256;

function validatorFor(schema: Record<string, unknown>): z.ZodType {
  let v = bySchemaObject.get(schema);
  if (v) return v;
  const text = JSON.stringify(schema);
  v = bySchemaText.get(text);
  if (!v) {
    v = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
    if (bySchemaText.size >= MAX_CACHED_SCHEMAS) bySchemaText.clear();
    bySchemaText.set(text, v);
  }
  bySchemaObject.set(schema, v);
  return v;
}

/** Checks a parsed answer against the response's JSON Schema (tests of what providers send); a reason or null. */
export function schemaViolation(response: ResponseSchema, value: unknown): string | null {
  const validator = validatorFor(response.schema);
  const parsed = validator.safeParse(value);
  if (parsed.success) return null;
  return parsed.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(answer)'}: ${i.message}`)
    .join('; ');
}

/**
 * The answer's JSON object (parsed from the text when the API did not hand one over); throws an
 * 'unparseable' ProviderError carrying the raw text when there is none. Without a schema the
 * answer is plain text: any non-blank text is the answer.
 *
 * The schema is what we ask for, not a gate: an object that breaks it ({"pairwise_verdict": {…}},
 * "Response A", a confidence as text or left out) goes on to the stage's parser (the judging
 * kit's tolerant readers), and only an answer that parser cannot read is asked again and paid
 * again (the engine's `validate`).
 */
export function parseStructured(
  response: ResponseSchema | undefined,
  raw: { text: string; value?: unknown; cutOff?: boolean },
  usage: Usage,
  headers: Headers,
): unknown {
  if (!response) {
    if (raw.text.trim() === '')
      throw new ProviderError('unparseable', 'The model gave an empty answer.', {
        rawText: raw.text,
        usage,
        headers,
      });
    return raw.text;
  }
  let value = raw.value !== undefined ? raw.value : extractJsonObject(raw.text);
  // Cut off at the output limit: the members written out whole go to the stage's parser, which
  // asks again only when they hold no verdict (a second call costs as much as the first).
  if (value === undefined && raw.cutOff) value = cutOffObject(raw.text);
  if (value === undefined)
    throw new ProviderError(
      'unparseable',
      raw.cutOff
        ? `The answer was cut off at the output limit before any whole field of "${response.name}".`
        : `The answer is not a JSON object "${response.name}".`,
      {
        rawText: raw.text,
        usage,
        headers,
      },
    );
  return value;
}
