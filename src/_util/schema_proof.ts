/**
 * Compile-time proofs that a schema matches the hand-written types it is exported as. The config types are
 * written out (they are the documented config reference); these helpers make `deno check` fail when a
 * schema and its types drift apart. At run time both helpers return the schema unchanged.
 *
 * @example
 * ```ts ignore
 * export const InboxConfigSchema: z.ZodType<InboxConfig, InboxConfigInput> = exactly(strictObject({ ... }));
 * ```
 *
 * @module
 */

import type { z } from "zod";

/** Field names of every member of a union. */
type KeysOf<T> = T extends unknown ? keyof T : never;

type SameKeys<A, B> = [KeysOf<A>] extends [KeysOf<B>] ? ([KeysOf<B>] extends [KeysOf<A>] ? true : false)
  : false;

/** True when `A` and `B` are assignable to each other and name the same fields. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? SameKeys<A, B> : false) : false;

/** True when every `D` is an `S` and both name the same fields (`D` may be a narrower union). */
type Covers<D, S> = [D] extends [S] ? SameKeys<D, S> : false;

/** No extra argument when both checks hold; otherwise a required argument nobody can pass. */
type Proof<OutputOk, InputOk> = OutputOk extends true
  ? (InputOk extends true ? [] : [declaredInputTypeDiffersFromSchema: never])
  : [declaredOutputTypeDiffersFromSchema: never];

/**
 * The schema typed as `z.ZodType<O, I>`, where `O` and `I` come from the declaration it is assigned to.
 * Compiles only when the schema's inferred output is exactly `O` and its input exactly `I`: assignable
 * both ways, with the same field names.
 */
export function exactly<O, I, S extends z.ZodType = z.ZodType>(
  schema: S,
  ..._declaredTypesDifferFromSchema: Proof<Same<z.output<S>, O>, Same<z.input<S>, I>>
): z.ZodType<O, I> {
  return schema as unknown as z.ZodType<O, I>;
}

/**
 * Like {@linkcode exactly}, for a schema whose refinements guarantee more than its inferred type says
 * (one flat object checked at run time to hold exactly one of two field groups). Compiles only when every
 * `O` is a valid output and every `I` a valid input of the schema, with the same field names.
 */
export function narrowedTo<O, I, S extends z.ZodType = z.ZodType>(
  schema: S,
  ..._declaredTypesDifferFromSchema: Proof<Covers<O, z.output<S>>, Covers<I, z.input<S>>>
): z.ZodType<O, I> {
  return schema as unknown as z.ZodType<O, I>;
}
