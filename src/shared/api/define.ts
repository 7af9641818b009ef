// How the API table (methods.ts) states a method: its parameters as a zod schema, the one
// definition both the core's validation and the callers' types come from, and its result as a
// TypeScript type (results are the core's own values: nothing untrusted to check at run time).
import type { z } from 'zod';

declare const RESULT: unique symbol;

/** A method's result type, carried by the table for the type checker only. */
export interface Returns<T> {
  readonly [RESULT]: T;
}

/**
 * The result marker of a table entry. It holds nothing at run time (no door reads a result's
 * type), so the cast is the one place the table says more than its value.
 */
export const returns = <T>(): Returns<T> => ({}) as Returns<T>;

export interface MethodEntry {
  params: z.ZodType;
  result: Returns<unknown>;
}

/**
 * Compiles only when A and B are the same type: a type declared beside the code that uses it
 * (CompareSide, LeastSureOptions, …) and the schema that checks it at the door.
 */
export type Agree<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : { disagree: [A, B] };
export type AssertTrue<T extends true> = T;
