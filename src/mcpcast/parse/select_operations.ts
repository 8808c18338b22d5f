/**
 * Narrowing a spec to part of its operations before planning or curating: by tag and by path prefix,
 * so a large API (GitHub's 1,200 operations) can be converted one area at a time.
 *
 * An operation is kept when it has one of `tags` (exact, case-insensitive) or its path starts with one
 * of `paths` (a prefix of whole segments: `/repos/{owner}/{repo}/issues` keeps
 * `/repos/{owner}/{repo}/issues/{issue_number}`, not `/repos/{owner}/{repo}/issues-archive`). Given
 * both, either one keeps it.
 *
 * @module
 */

import { McpcastError } from "../errors.ts";
import type { ParsedSpec } from "../types.ts";

/** Which operations {@linkcode selectOperations} keeps. */
export interface OperationSelection {
  /** Keep operations with one of these tags. */
  tags?: readonly string[];
  /** Keep operations whose path starts with one of these prefixes (whole segments). */
  paths?: readonly string[];
}

const TAGS_SHOWN = 12;

function underPrefix(path: string, prefix: string): boolean {
  const clean = prefix.length > 1 ? prefix.replace(/\/+$/, "") : prefix;
  return path === clean || path.startsWith(clean.endsWith("/") ? clean : `${clean}/`);
}

/**
 * `spec` with only the operations `selection` names (the spec itself when it names nothing).
 *
 * @throws {McpcastError} when nothing matches, listing the spec's tags.
 */
export function selectOperations(spec: ParsedSpec, selection: OperationSelection): ParsedSpec {
  const tags = new Set((selection.tags ?? []).map((tag) => tag.toLowerCase()));
  const paths = selection.paths ?? [];
  for (const prefix of paths) {
    if (!prefix.startsWith("/")) {
      throw new McpcastError(`a path prefix must start with '/' (got '${prefix}')`);
    }
  }
  if (tags.size === 0 && paths.length === 0) return spec;
  const operations = spec.operations.filter((op) =>
    op.tags.some((tag) => tags.has(tag.toLowerCase())) || paths.some((prefix) => underPrefix(op.path, prefix))
  );
  if (operations.length === 0) {
    const known = [...new Set(spec.operations.flatMap((op) => op.tags))].sort();
    const shown = known.slice(0, TAGS_SHOWN).join(", ") + (known.length > TAGS_SHOWN ? ", ..." : "");
    throw new McpcastError(
      `no operation of the spec matches the selection (${describe(selection)})` +
        (known.length > 0 ? `; its tags: ${shown}` : "; the spec has no tags"),
    );
  }
  return { ...spec, operations };
}

function describe(selection: OperationSelection): string {
  const parts = [
    ...(selection.tags ?? []).map((tag) => `tag '${tag}'`),
    ...(selection.paths ?? []).map((path) => `path '${path}'`),
  ];
  return parts.join(", ");
}
