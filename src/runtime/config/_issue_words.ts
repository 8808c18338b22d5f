/**
 * Plain words for issues: what a value is (by kind, never its content) and generic phrases for schemas
 * that carry none of their own.
 *
 * @module
 */

import type { z } from "zod";
import { oneOfWords } from "./_fields.ts";

/** Describes a value by kind: `a string`, `an empty string`, `a number`, `a list`, `null`, ... */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return value.length === 0 ? "an empty list" : "a list";
  switch (typeof value) {
    case "string":
      return value === "" ? "an empty string" : "a string";
    case "number":
      return "a number";
    case "boolean":
      return "a boolean";
    case "function":
      return "a function";
    case "object":
      return "an object";
    default:
      return `a ${typeof value}`;
  }
}

const TYPE_WORDS: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "true or false",
  object: "an object",
  array: "a list",
  null: "null",
  function: "a function",
};

function sizeWords(
  issue: { origin: string; inclusive?: boolean },
  bound: number | bigint,
  below: boolean,
): string {
  const op = below ? (issue.inclusive ? ">=" : ">") : (issue.inclusive ? "<=" : "<");
  if (issue.origin === "string") return `a string of ${op} ${bound} characters`;
  if (issue.origin === "array") return `a list of ${op} ${bound} items`;
  return `a ${issue.origin} ${op} ${bound}`;
}

/** Generic phrase for an issue raised by a schema without its own phrase (a parse-level error map). */
export function fallbackMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      return TYPE_WORDS[issue.expected] ?? `a value of type ${issue.expected}`;
    case "too_small":
      return sizeWords(issue, issue.minimum, true);
    case "too_big":
      return sizeWords(issue, issue.maximum, false);
    case "invalid_value":
      return oneOfWords(issue.values.map((value) => String(value)));
    case "invalid_format":
      return `a string in ${issue.format} format`;
    case "unrecognized_keys":
      return "no such field";
    default:
      return undefined;
  }
}

function sizeReceived(origin: string, input: unknown, below: boolean): string {
  if (origin === "string") {
    return input === "" ? " (got an empty string)" : ` (got a string too ${below ? "short" : "long"})`;
  }
  if (origin === "array") {
    return Array.isArray(input) && input.length === 0
      ? " (got an empty list)"
      : ` (got a list with too ${below ? "few" : "many"} items)`;
  }
  return ` (got a ${origin} out of range)`;
}

/** ` (got a string)`, ` (missing)`, ... for an issue reported with its input; "" when not useful. */
export function receivedWords(issue: z.core.$ZodIssue): string {
  if (!("input" in issue)) return "";
  const input = issue.input;
  switch (issue.code) {
    case "invalid_type":
      if (input === undefined) return " (missing)";
      if (issue.expected === "int" && typeof input === "number") {
        return " (got a number that is not an integer)";
      }
      return ` (got ${describeValue(input)})`;
    case "too_small":
      return sizeReceived(issue.origin, input, true);
    case "too_big":
      return sizeReceived(issue.origin, input, false);
    case "invalid_value":
      return typeof input === "string" ? "" : ` (got ${describeValue(input)})`;
    case "invalid_union": {
      if (issue.discriminator === undefined) return ` (got ${describeValue(input)})`;
      const tag = typeof input === "object" && input !== null
        ? (input as Record<string, unknown>)[issue.discriminator]
        : undefined;
      if (tag === undefined) return " (missing)";
      return typeof tag === "string" ? "" : ` (got ${describeValue(tag)})`;
    }
    case "custom":
      return issue.params?.describeInput === true ? ` (got ${describeValue(input)})` : "";
    default:
      return "";
  }
}
