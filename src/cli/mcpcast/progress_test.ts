import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { fakeContext } from "../_test_context.ts";
import { isLargeSource, LARGE_SPEC_OPERATIONS, Progress } from "./progress.ts";

const spec = (name: string) =>
  fileURLToPath(new URL(`../../../tests/fixtures/specs/${name}`, import.meta.url));

Deno.test("progress shows phases on a terminal for a large spec, with the time elapsed", () => {
  const { ctx, stderr } = fakeContext([], { terminal: true });
  const progress = new Progress(ctx, { large: true });
  progress.phase("loading big.json");
  progress.operations(1223);
  progress.phase("planning");
  assert.equal(stderr.length, 3);
  assert.match(stderr[0], /^mcpcast: \[\d+\.\ds\] loading big\.json$/);
  assert.match(stderr[1], /parsed 1,223 operations$/);
});

Deno.test("progress stays quiet for a small spec until it counts many operations, and off a terminal", () => {
  const small = fakeContext([], { terminal: true });
  const progress = new Progress(small.ctx, { large: false });
  progress.phase("loading small.yaml");
  progress.operations(20);
  progress.phase("planning");
  assert.deepEqual(small.stderr, []);
  progress.operations(LARGE_SPEC_OPERATIONS);
  progress.phase("planning");
  assert.equal(small.stderr.length, 2);
  const piped = fakeContext([], { terminal: false });
  const quiet = new Progress(piped.ctx, { large: true });
  quiet.phase("loading");
  quiet.operations(5000);
  assert.deepEqual(piped.stderr, []);
});

Deno.test("a URL or a file of a megabyte or more is large before it is parsed", async () => {
  assert.equal(await isLargeSource("https://api.example.com/openapi.json"), true);
  assert.equal(await isLargeSource(spec("api.github.com.json")), true);
  assert.equal(await isLargeSource(spec("petstore_swagger2.yaml")), false);
  assert.equal(await isLargeSource("openapi: 3.1.0"), false);
  assert.equal(await isLargeSource("/nonexistent/spec.yaml"), false);
});
