import assert from "node:assert/strict";
import { test } from "node:test";
import { McpcastError } from "../errors.ts";
import { openapi } from "../_test_parse.ts";
import { parseSpec } from "./parse_spec.ts";
import { selectOperations } from "./select_operations.ts";

const ok = { "200": { description: "ok" } };

async function spec() {
  return await parseSpec(openapi({
    "/repos/{owner}/{repo}/issues": {
      get: { operationId: "listIssues", tags: ["issues"], responses: ok },
      post: { operationId: "createIssue", tags: ["Issues"], responses: ok },
    },
    "/repos/{owner}/{repo}/issues/{n}": { get: { operationId: "getIssue", tags: ["issues"], responses: ok } },
    "/repos/{owner}/{repo}/issues-archive": {
      get: { operationId: "archive", tags: ["archive"], responses: ok },
    },
    "/repos/{owner}/{repo}/pulls": { get: { operationId: "listPulls", tags: ["pulls"], responses: ok } },
    "/meta": { get: { operationId: "meta", responses: ok } },
  }));
}

const ids = (s: { operations: { operationId: string }[] }) => s.operations.map((op) => op.operationId);

test("selectOperations keeps operations by tag (any case) or by a path prefix of whole segments", async () => {
  const parsed = await spec();
  assert.equal(selectOperations(parsed, {}), parsed);
  assert.deepEqual(ids(selectOperations(parsed, { tags: ["ISSUES"] })), [
    "listIssues",
    "createIssue",
    "getIssue",
  ]);
  assert.deepEqual(ids(selectOperations(parsed, { paths: ["/repos/{owner}/{repo}/issues/"] })), [
    "listIssues",
    "createIssue",
    "getIssue",
  ]);
  assert.deepEqual(ids(selectOperations(parsed, { tags: ["pulls"], paths: ["/meta"] })), [
    "listPulls",
    "meta",
  ]);
});

test("selectOperations refuses a selection that matches nothing, listing the tags, and a relative prefix", async () => {
  const parsed = await spec();
  assert.throws(
    () => selectOperations(parsed, { tags: ["gists"] }),
    (error: unknown) =>
      error instanceof McpcastError &&
      error.message ===
        "no operation of the spec matches the selection (tag 'gists'); its tags: Issues, archive, " +
          "issues, pulls",
  );
  assert.throws(() => selectOperations(parsed, { paths: ["repos"] }), /must start with '\/' \(got 'repos'\)/);
});
