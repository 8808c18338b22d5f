/**
 * Schema building blocks for the config sections, and {@linkcode Resolved}, which derives a section's
 * resolved type from its type as written. Each schema carries a plain-words phrase saying what it
 * expects; that phrase becomes the issue message, and `issues.ts` adds what was received.
 *
 * @module
 */

import { z } from "zod";
import { hasEnvReference } from "./env_reference.ts";

/**
 * A config section with its defaults filled, derived from the section as written: every field of `T`
 * becomes required except the fields `K`, which have no default and stay optional. The field docs
 * carry over from `T`.
 *
 * @example
 * ```ts ignore
 * export type JournalConfig = Resolved<JournalConfigInput, "path">;
 * ```
 */
export type Resolved<T, K extends keyof T = never> = Required<Omit<T, K>> & Pick<T, K>;

/** Appended to a phrase for nullable fields. */
export const OR_NULL = " or null";

/** Bounds of a number field. */
export interface Range {
  /** Inclusive lower bound. */
  min?: number;
  /** Exclusive lower bound. */
  gt?: number;
  /** Inclusive upper bound. */
  max?: number;
}

/** `>= 1`, `> 0`, `from 0 to 23`, `> 0 and <= 1`. */
export function rangeWords(range: Range): string {
  const { min, gt, max } = range;
  if (min !== undefined && max !== undefined) return ` from ${min} to ${max}`;
  const low = min !== undefined ? `>= ${min}` : gt !== undefined ? `> ${gt}` : "";
  const high = max !== undefined ? `<= ${max}` : "";
  const words = [low, high].filter((part) => part !== "").join(" and ");
  return words === "" ? "" : ` ${words}`;
}

function bounded(schema: z.ZodNumber, range: Range): z.ZodNumber {
  let result = schema;
  if (range.min !== undefined) result = result.min(range.min);
  if (range.gt !== undefined) result = result.gt(range.gt);
  if (range.max !== undefined) result = result.max(range.max);
  return result;
}

/** An integer within `range`; `extra` extends the phrase (e.g. {@linkcode OR_NULL}). */
export function integer(range: Range = {}, extra = ""): z.ZodNumber {
  return bounded(z.number({ error: `an integer${rangeWords(range)}${extra}` }).int(), range);
}

/** A finite number within `range`; `extra` extends the phrase. */
export function number(range: Range = {}, extra = ""): z.ZodNumber {
  return bounded(z.number({ error: `a number${rangeWords(range)}${extra}` }), range);
}

/** A JSON boolean (no `1`, no `"true"`). */
export function boolean(): z.ZodBoolean {
  return z.boolean({ error: "true or false" });
}

/** Any string. */
export function string(phrase = "a string"): z.ZodString {
  return z.string({ error: phrase });
}

/** A string of at least one character. */
export function nonEmptyString(phrase = "a non-empty string"): z.ZodString {
  return z.string({ error: phrase }).min(1);
}

/** A string matching `pattern`. */
export function pattern(regex: RegExp, phrase: string): z.ZodString {
  return z.string({ error: phrase }).regex(regex);
}

/** `one of "a", "b"`. */
export function oneOfWords(values: readonly string[]): string {
  return `one of ${values.map((value) => JSON.stringify(value)).join(", ")}`;
}

/** One of a fixed set of strings. */
export function oneOf<const T extends readonly [string, ...string[]]>(
  values: T,
): z.ZodEnum<{ [K in T[number]]: K }> {
  return z.enum(values, { error: oneOfWords(values) });
}

/** A list of strings (each checked by `item`). */
export function list<T extends z.ZodType>(item: T, phrase: string, minItems = 0): z.ZodArray<T> {
  const schema = z.array(item, { error: phrase });
  return minItems > 0 ? schema.min(minItems) : schema;
}

/** An object mapping any names to strings. */
export function stringMap(
  phrase = "an object mapping names to strings",
): z.ZodRecord<z.ZodString, z.ZodString> {
  return z.record(z.string(), string(), { error: phrase });
}

/** An object with any keys and JSON values. */
export function anyObject(phrase = "an object"): z.ZodRecord<z.ZodString, z.ZodUnknown> {
  return z.record(z.string(), z.unknown(), { error: phrase });
}

/** The `<provider>:<model>` rule. */
export const MODEL_PATTERN: RegExp = /^[a-z][a-z0-9_-]*:\S.*$/;

/** A `<provider>:<model>` string. */
export function modelString(extra = ""): z.ZodString {
  return pattern(MODEL_PATTERN, `a "<provider>:<model>" string such as "openai:gpt-5-mini"${extra}`);
}

/** True for an absolute http or https URL with a host. */
export function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
}

/**
 * An http(s) URL. A value holding a `${VAR}` reference passes: it is checked again once resolved.
 */
export function httpUrl(phrase = "an http(s) URL"): z.ZodString {
  return z.string({ error: phrase }).refine((value) => hasEnvReference(value) || isHttpUrl(value), {
    error: phrase,
  });
}

/** Unknown-key wording; the allowed names come from the object schema that raised the issue. */
function unknownKeyMessage(inst: unknown, context: string | undefined): string {
  const allowed = inst instanceof z.ZodObject ? Object.keys(inst.shape).join(", ") : "";
  return `no such field${context === undefined ? "" : ` for ${context}`}; allowed: ${allowed}`;
}

/** Options of {@linkcode strictObject}. */
export interface StrictObjectOptions {
  /** Phrase used when the value is not an object. @default "an object" */
  noun?: string;
  /** Added to the unknown-field wording, e.g. `a cron trigger`. */
  context?: string;
}

/** A strict object: unknown keys give `no such field; allowed: ...` (also after `.extend()`). */
export function strictObject<S extends z.core.$ZodLooseShape>(
  shape: S,
  options: StrictObjectOptions = {},
): z.ZodObject<z.core.util.Writeable<S>, z.core.$strict> {
  const noun = options.noun ?? "an object";
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === "unrecognized_keys") return unknownKeyMessage(issue.inst, options.context);
      return issue.code === "invalid_type" ? noun : undefined;
    },
  });
}
