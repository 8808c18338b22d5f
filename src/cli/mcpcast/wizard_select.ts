/**
 * The guided setup's narrowing question: a spec with more than {@linkcode SELECT_ABOVE} operations
 * shows its tags with their operation counts, and the answer keeps some tags (a comma list), one or
 * more path prefixes (starting with '/'), or all of it — the wizard's `--tag` and `--path`.
 *
 * @module
 */

import { McpcastError, type ParsedSpec, selectOperations } from "../../mcpcast/mod.ts";
import type { Prompter } from "../prompter.ts";

/** Above this many operations the guided setup offers to keep only some tags or a path prefix. */
export const SELECT_ABOVE = 50;

const TAGS_LISTED = 30;

/** The operations kept, and the `--tag` / `--path` values that keep them. */
export interface WizardSelection {
  /** The spec narrowed to the kept operations (the spec itself when all are kept). */
  spec: ParsedSpec;
  /** `--tag` values (empty: none). */
  tags: string[];
  /** `--path` values (empty: none). */
  paths: string[];
}

function tagCounts(spec: ParsedSpec): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const op of spec.operations) for (const tag of op.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

function parseAnswer(answer: string): { tags: string[]; paths: string[] } {
  const items = answer.split(",").map((item) => item.trim()).filter((item) => item !== "");
  return {
    tags: items.filter((item) => !item.startsWith("/")),
    paths: items.filter((item) => item.startsWith("/")),
  };
}

function problemOf(spec: ParsedSpec, answer: string): string | undefined {
  if (answer.toLowerCase() === "all") return undefined;
  const { tags, paths } = parseAnswer(answer);
  if (tags.length === 0 && paths.length === 0) {
    return "give tags (comma list), a path prefix (/...), or 'all'";
  }
  const known = new Set(spec.operations.flatMap((op) => op.tags).map((tag) => tag.toLowerCase()));
  const unknown = tags.filter((tag) => !known.has(tag.toLowerCase()));
  if (unknown.length > 0) {
    return `no tag ${unknown.map((tag) => `'${tag}'`).join(", ")} in the spec (tags are listed above)`;
  }
  try {
    selectOperations(spec, { tags, paths });
    return undefined;
  } catch (error) {
    if (!(error instanceof McpcastError)) throw error;
    return error.message;
  }
}

/**
 * Asks which part of a large spec to keep; a spec of `above` operations or fewer is kept whole
 * without a question.
 */
export async function chooseSelection(
  ask: Prompter,
  spec: ParsedSpec,
  above: number = SELECT_ABOVE,
): Promise<WizardSelection> {
  const all = { spec, tags: [], paths: [] };
  if (spec.operations.length <= above) return all;
  const counts = tagCounts(spec);
  ask.say(`  more than ${above} operations: keep only some tags (--tag) or a path prefix (--path)?`);
  if (counts.length === 0) ask.say("  the spec has no tags");
  else {
    const listed = counts.slice(0, TAGS_LISTED).map(([tag, n]) => `${tag} (${n})`).join(", ");
    ask.say(`  tags: ${listed}${counts.length > TAGS_LISTED ? `, ... (${counts.length} tags)` : ""}`);
  }
  const answer = await ask.ask("Keep (tags, comma list; a /path prefix; or all)", {
    fallback: "all",
    check: (typed) => problemOf(spec, typed),
  });
  if (answer.toLowerCase() === "all") return all;
  const { tags, paths } = parseAnswer(answer);
  const selected = selectOperations(spec, { tags, paths });
  ask.say(`  ${selected.operations.length} of ${spec.operations.length} operations kept`);
  return { spec: selected, tags, paths };
}
