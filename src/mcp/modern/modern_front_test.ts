import assert from "node:assert/strict";
import { ApiKeyAuth } from "../auth/api_key_auth.ts";
import { authMiddleware } from "../auth/auth_middleware.ts";
import { createToolServer } from "../tool_server.ts";
import { echoServer } from "../transports/_test_serve.ts";
import { toFetchHandler } from "../transports/to_fetch_handler.ts";
import { answerOf, modernPost } from "./_test_modern.ts";

function keyedServer() {
  return createToolServer({ name: "keyed", requireAuth: true })
    .use(authMiddleware(new ApiKeyAuth({ keys: { "sk-live": "ops" } })))
    .tool("me", { description: "The caller" }, (_args, ctx) => ctx.clientId ?? "nobody");
}

Deno.test("the auth gate answers 401 to a modern request without a valid key, before the MCP layer", async () => {
  const handler = toFetchHandler(keyedServer());
  try {
    const refused = await handler(modernPost("tools/call", { name: "me", arguments: {} }));
    assert.equal(refused.status, 401);
    await refused.body?.cancel();
    const wrong = await handler(modernPost("tools/call", { name: "me", arguments: {} }, {
      headers: { "x-api-key": "sk-wrong" },
    }));
    assert.equal(wrong.status, 401);
    await wrong.body?.cancel();
  } finally {
    await handler.close();
  }
});

Deno.test("a modern request's headers reach the auth middleware: the call runs as the key's client", async () => {
  const handler = toFetchHandler(keyedServer());
  try {
    const answer = await answerOf(
      await handler(modernPost("tools/call", { name: "me", arguments: {} }, {
        headers: { "x-api-key": "sk-live" },
      })),
    );
    assert.deepEqual(answer.result?.content, [{ type: "text", text: "ops" }]);
    const listed = await answerOf(
      await handler(modernPost("tools/list", {}, { headers: { "x-api-key": "sk-live" } })),
    );
    assert.equal(listed.result?.cacheScope, "private", "an authenticating server's lists are not shared");
  } finally {
    await handler.close();
  }
});

Deno.test("the body limits apply to modern requests: 415 for a non-JSON type, 413 for an oversized body", async () => {
  const handler = toFetchHandler(echoServer());
  try {
    const typed = modernPost("tools/list");
    const wrongType = await handler(
      new Request(typed.url, {
        method: "POST",
        headers: { ...Object.fromEntries(typed.headers), "content-type": "text/plain" },
        body: await typed.text(),
      }),
    );
    assert.equal(wrongType.status, 415);
    await wrongType.body?.cancel();
    const huge = modernPost("tools/call", { name: "echo", arguments: { text: "x".repeat(5 * 1024 * 1024) } });
    const tooLarge = await handler(huge);
    assert.equal(tooLarge.status, 413);
    await tooLarge.body?.cancel();
  } finally {
    await handler.close();
  }
});

Deno.test("GET and DELETE without a session stay on the 2025 route", async () => {
  const handler = toFetchHandler(echoServer());
  try {
    const get = await handler(
      new Request("http://127.0.0.1/mcp", { headers: { accept: "text/event-stream" } }),
    );
    assert.equal(get.status, 400);
    assert.match(await get.text(), /Mcp-Session-Id header is required/);
    const del = await handler(new Request("http://127.0.0.1/mcp", { method: "DELETE" }));
    assert.equal(del.status, 400);
    await del.body?.cancel();
  } finally {
    await handler.close();
  }
});
