import assert from "node:assert/strict";
import { envOf } from "../_test_parse.ts";
import { McpcastError } from "../errors.ts";
import {
  DEFAULT_FETCH_SECONDS,
  DEFAULT_MAX_SPEC_BYTES,
  DEFAULT_MAX_SPEC_NODES,
  MAX_SPEC_DEPTH,
  readSpecLimits,
} from "./limits.ts";

Deno.test("spec limits default to 20 MiB, 60 seconds, two million nodes and depth 256", () => {
  assert.deepEqual(readSpecLimits(envOf()), {
    maxBytes: 20 * 1024 * 1024,
    fetchSeconds: 60,
    maxNodes: 2_000_000,
    maxDepth: 256,
  });
  assert.equal(DEFAULT_MAX_SPEC_BYTES, 20_971_520);
  assert.equal(DEFAULT_FETCH_SECONDS, 60);
  assert.equal(DEFAULT_MAX_SPEC_NODES, 2_000_000);
  assert.equal(MAX_SPEC_DEPTH, 256);
});

Deno.test("spec limits are overridden by their environment variables", () => {
  const limits = readSpecLimits(envOf({
    MCPCAST_MAX_SPEC_BYTES: " 1024 ",
    MCPCAST_FETCH_SECONDS: "0.5",
    MCPCAST_MAX_SPEC_NODES: "50",
  }));
  assert.deepEqual(limits, { maxBytes: 1024, fetchSeconds: 0.5, maxNodes: 50, maxDepth: 256 });
  assert.equal(readSpecLimits(envOf({ MCPCAST_MAX_SPEC_BYTES: "" })).maxBytes, DEFAULT_MAX_SPEC_BYTES);
});

Deno.test("an invalid limit names its variable: not an integer, not a number, not positive", () => {
  const cases: [Record<string, string>, string][] = [
    [{ MCPCAST_MAX_SPEC_BYTES: "20MB" }, "MCPCAST_MAX_SPEC_BYTES must be an integer"],
    [{ MCPCAST_MAX_SPEC_BYTES: "1.5" }, "MCPCAST_MAX_SPEC_BYTES must be an integer"],
    [{ MCPCAST_MAX_SPEC_NODES: "many" }, "MCPCAST_MAX_SPEC_NODES must be an integer"],
    [{ MCPCAST_MAX_SPEC_NODES: "0" }, "MCPCAST_MAX_SPEC_NODES must be positive"],
    [{ MCPCAST_FETCH_SECONDS: "soon" }, "MCPCAST_FETCH_SECONDS must be a number"],
    [{ MCPCAST_FETCH_SECONDS: "-3" }, "MCPCAST_FETCH_SECONDS must be positive"],
    [{ MCPCAST_MAX_SPEC_BYTES: "99999999999999999999" }, "MCPCAST_MAX_SPEC_BYTES is too large"],
  ];
  for (const [env, message] of cases) {
    assert.throws(() => readSpecLimits(envOf(env)), (error: unknown) => {
      assert.ok(error instanceof McpcastError);
      assert.equal(error.message, message);
      return true;
    });
  }
});
