/**
 * Test helper: the operations of the GitHub REST spec fixture (`@octokit/openapi`'s
 * `api.github.com.json`), read straight from the document so classification and naming tests do not
 * depend on the parser.
 *
 * @module
 */

import type { HttpMethod, Operation } from "../types.ts";

/** Where the fixture is committed. */
export const GITHUB_SPEC_PATH = "tests/fixtures/specs/api.github.com.json";

const FIXTURE_URL = new URL(`../../../${GITHUB_SPEC_PATH}`, import.meta.url);
const METHODS = ["get", "head", "post", "put", "patch", "delete", "options", "trace"] as const;

/** The fields of an operation the classifier and the naming functions read. */
export type GithubOperation = Pick<
  Operation,
  "operationId" | "method" | "path" | "summary" | "scopes" | "deprecated" | "tags"
>;

/** Whether the fixture file exists (tests skip only when it does not). */
export function githubSpecPresent(): boolean {
  try {
    return Deno.statSync(FIXTURE_URL).isFile;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : {};
}

/** The fixture's operations in document order (path order, then method order). */
export async function githubOperations(): Promise<GithubOperation[]> {
  const spec = record(JSON.parse(await Deno.readTextFile(FIXTURE_URL)));
  const operations: GithubOperation[] = [];
  for (const [path, item] of Object.entries(record(spec.paths))) {
    for (const method of METHODS) {
      const op = record(record(item)[method]);
      if (Object.keys(op).length === 0) continue;
      operations.push({
        operationId: String(op.operationId ?? `${method}_${path}`),
        method: method.toUpperCase() as HttpMethod,
        path,
        summary: typeof op.summary === "string" ? op.summary.trim() : undefined,
        scopes: [],
        deprecated: op.deprecated === true,
        tags: Array.isArray(op.tags) ? op.tags.filter((tag): tag is string => typeof tag === "string") : [],
      });
    }
  }
  return operations;
}
