import assert from "node:assert/strict";
import { test } from "node:test";
import { startModelServer } from "../../models/testing/mod.ts";
import { McpcastError } from "../errors.ts";
import { modelCompleter } from "./completer.ts";

test("modelCompleter sends the system and user prompts as one tool-less turn and answers its text", async () => {
  await using server = startModelServer({ respond: () => ({ text: '{"ok":true}' }) });
  const complete = modelCompleter("openai-compatible:scripted", {
    env: (name) => name === "OPENAI_COMPATIBLE_BASE_URL" ? server.url : undefined,
  });
  assert.equal(await complete("be brief", "plan this"), '{"ok":true}');
  const [request] = server.requests;
  assert.deepEqual(request.messages.map((m) => [m.role, m.content]), [["system", "be brief"], [
    "user",
    "plan this",
  ]]);
  assert.equal(request.tools.length, 0);
});

test("modelCompleter names the model and the missing variable, and wraps a failed request", async () => {
  assert.throws(
    () => modelCompleter("openai:gpt-5-mini", { env: () => undefined }),
    (error: unknown) =>
      error instanceof McpcastError && /model 'openai:gpt-5-mini' could not be used/.test(error.message) &&
      /OPENAI_API_KEY/.test(error.message),
  );
  await using server = startModelServer({ respond: () => ({ status: 400 }) });
  const complete = modelCompleter("openai-compatible:x", {
    env: (name) => name === "OPENAI_COMPATIBLE_BASE_URL" ? server.url : undefined,
  });
  await assert.rejects(complete("s", "u"), /model 'openai-compatible:x' could not be used: /);
});
