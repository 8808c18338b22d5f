/**
 * Parsing configs into either the resolved value or a list of plain-words issues:
 * `{ field: "triggers[0].cron_expression", expected: "a cron expression ... (got a number)" }`.
 * Received values are described by kind only, never echoed.
 *
 * @module
 */

import type { z } from "zod";
import { fallbackMessage, receivedWords } from "./_issue_words.ts";
import { formatPath } from "./field_path.ts";
import {
  PROCESS_CONFIG_SHAPE,
  type ProcessConfig,
  type ProcessConfigField,
  ProcessConfigSchema,
} from "./process_config.ts";

/** One problem in a config: where (a dotted path; `(config)` for the root) and what was expected. */
export interface ConfigIssue {
  /** Path of the offending field, e.g. `servers.github.url` or `triggers[0].topic`. */
  field: string;
  /** What was expected and, by kind only, what was received. */
  expected: string;
}

/** Outcome of a parse: the resolved value, or the issues. */
export type ConfigParseResult<T> = { ok: true; config: T } | { ok: false; issues: ConfigIssue[] };

/** Options of {@linkcode parseWith} and {@linkcode parseSection}. */
export interface ParseOptions {
  /** Already formatted path prepended to every field (e.g. `budget`). */
  prefix?: string;
}

/** Field name used for the root of the parsed value when there is no prefix. */
export const ROOT_FIELD = "(config)";

const UNKNOWN_FIELD = "no such field";

type Issue = z.core.$ZodIssue;

function fieldName(path: readonly PropertyKey[], prefix: string): string {
  const field = formatPath(path, prefix);
  return field === "" ? ROOT_FIELD : field;
}

function depth(issues: readonly Issue[]): number {
  return Math.max(
    0,
    ...issues.map((issue) => issue.path.length + (issue.code === "unrecognized_keys" ? 1 : 0)),
  );
}

/** The union branch that got furthest, when exactly one did. */
function bestBranch(branches: readonly (readonly Issue[])[]): readonly Issue[] | undefined {
  const depths = branches.map(depth);
  const best = Math.max(0, ...depths);
  return best > 0 && depths.filter((d) => d === best).length === 1
    ? branches[depths.indexOf(best)]
    : undefined;
}

function collect(issues: readonly Issue[], base: readonly PropertyKey[], prefix: string, out: ConfigIssue[]) {
  for (const issue of issues) {
    const path = [...base, ...issue.path];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        out.push({ field: fieldName([...path, key], prefix), expected: issue.message });
      }
      continue;
    }
    if (issue.code === "invalid_union" && issue.errors.length > 0) {
      const branch = bestBranch(issue.errors);
      if (branch !== undefined) {
        collect(branch, path, prefix, out);
        continue;
      }
    }
    if (issue.code === "invalid_key") {
      out.push({ field: fieldName(path, prefix), expected: issue.issues[0]?.message ?? issue.message });
      continue;
    }
    out.push({ field: fieldName(path, prefix), expected: issue.message + receivedWords(issue) });
  }
}

/**
 * Turns a zod error into config issues: one per problem, and one per unknown key (named in `field`).
 * Wording is best for errors from {@linkcode parseWith}, which asks zod to report inputs.
 */
export function formatZodIssues(error: z.ZodError, prefix = ""): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  collect(error.issues, [], prefix, out);
  return out;
}

/** Parses `input` with any schema, strictly, returning the output or config issues. */
export function parseWith<S extends z.ZodType>(
  schema: S,
  input: unknown,
  options: ParseOptions = {},
): ConfigParseResult<z.output<S>> {
  const result = schema.safeParse(input, { reportInput: true, error: fallbackMessage });
  if (result.success) return { ok: true, config: result.data };
  return { ok: false, issues: formatZodIssues(result.error, options.prefix) };
}

/**
 * Parses a whole process config, filling every default.
 *
 * @example
 * ```ts
 * import { parseProcessConfig } from "./issues.ts";
 * const result = parseProcessConfig({ budget: { max_runs_per_day: "5" } });
 * // { ok: false, issues: [{ field: "budget.max_runs_per_day", expected: "an integer >= 1 or null (got a string)" }] }
 * ```
 */
export function parseProcessConfig(input: unknown): ConfigParseResult<ProcessConfig> {
  if (typeof input === "object" && input !== null && PARSED.has(input)) {
    return { ok: true, config: input as ProcessConfig };
  }
  const parsed = parseWith(ProcessConfigSchema, input);
  if (parsed.ok) PARSED.add(parsed.config);
  return parsed;
}

/**
 * Configs this module produced: parsing one again gives itself, so a config the control API parsed is
 * not parsed a second time by `AgentRuntime.deploy` (a parse per deploy is most of a deploy's CPU).
 * Configs are not changed after parsing (sections are replaced whole, as new objects).
 */
const PARSED = new WeakSet<object>();

/**
 * Parses one top-level config field (`budget`, `health`, `triggers`, ...) with the same rules as a whole
 * config. Fields are reported under `options.prefix`, by default the section name.
 */
export function parseSection<K extends ProcessConfigField>(
  name: K,
  input: unknown,
  options: ParseOptions = {},
): ConfigParseResult<ProcessConfig[K]> {
  return parseWith(PROCESS_CONFIG_SHAPE[name], input, { prefix: options.prefix ?? name });
}

/** True when the issue is about a field that does not exist (for UNKNOWN_FIELD answers). */
export function isUnknownFieldIssue(issue: ConfigIssue): boolean {
  return issue.expected.startsWith(UNKNOWN_FIELD);
}

/** Issues as text lines: `- field: expected`. */
export function formatIssueList(issues: readonly ConfigIssue[]): string {
  return issues.map((issue) => `- ${issue.field}: ${issue.expected}`).join("\n");
}
