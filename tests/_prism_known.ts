/**
 * Requests of the corpus's generated servers that Prism rejects today, keyed `"<spec> <operation_id>"`
 * (see `mcpcast_prism_test.ts`). Every entry names its cause and the issue-15 slice that owns the fix;
 * remove an entry when its fix lands (the suite fails on an entry that no longer happens).
 *
 * @module
 */

/** Why a request is rejected, and who fixes it. */
export interface KnownRejection {
  /** The cause, in a phrase. */
  cause: string;
  /** Who owns the fix: an issue-15 slice, `spec` for the spec's own ambiguity (kept, documented), `prism` for a Prism defect on a valid request. */
  owner: "B" | "C" | "D" | "spec" | "prism";
}

/** Known rejections by `"<spec> <operation_id>"`. */
export const KNOWN_REJECTIONS: Readonly<Record<string, KnownRejection>> = {
  "circular_paths_oas30.json put_anything": {
    cause: "Prism 5 crashes on an absent optional array header parameter (`content`): its simple-style " +
      "deserializer splits undefined and the connection closes; the request itself is valid",
    owner: "prism",
  },

  // GitHub: `oneOf: [{type: integer}, {type: string}]` path parameters. A path segment is text, so "5"
  // (or the example 42) fits both alternatives once coerced and `oneOf` fails: the spec's own ambiguity
  // (`anyOf` was meant). Any value mcpcast could send is rejected; kept, documented in docs/mcpcast.md.
  ...Object.fromEntries(
    [
      "actions_get_workflow",
      "actions_disable_workflow",
      "actions_create_workflow_dispatch",
      "actions_enable_workflow",
      "actions_list_workflow_runs",
      "actions_get_workflow_usage",
      "repos_get_pages_deployment",
      "repos_cancel_pages_deployment",
    ].map((id) => [`api.github.com.json ${id}`, {
      cause: "oneOf[integer, string] path parameter: a number-like segment matches both alternatives",
      owner: "spec" as const,
    }]),
  ),
};
