import assert from "node:assert/strict";
import { z } from "zod";
import { createToolServer } from "../tool_server.ts";
import { echoServer, INITIALIZE, mcpPost } from "../transports/_test_serve.ts";
import { toFetchHandler } from "../transports/to_fetch_handler.ts";
import { answerOf, modernPost } from "./_test_modern.ts";
import { createModernHandler } from "./modern_handler.ts";
import { createModernServer } from "./modern_server.ts";

Deno.test("a 2026-07-28 tools/call is answered statelessly with resultType, and opens no session", async () => {
  const handler = toFetchHandler(echoServer());
  try {
    const answer = await answerOf(
      await handler(modernPost("tools/call", { name: "echo", arguments: { text: "hi" } })),
    );
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.result?.content, [{ type: "text", text: "hi" }]);
    assert.equal(answer.result?.resultType, "complete");
    assert.equal(handler.sessionCount, 0);
    const legacy = await handler(mcpPost(INITIALIZE));
    await legacy.body?.cancel();
    assert.equal(legacy.status, 200);
    assert.ok(legacy.headers.get("mcp-session-id"), "initialize still opens a 2025 session");
    assert.equal(handler.sessionCount, 1);
  } finally {
    await handler.close();
  }
});

Deno.test("list results carry caching hints: public when the same for everyone, private when filtered", async () => {
  for (const [hide, scope] of [[false, "public"], [true, "private"]] as const) {
    const handler = toFetchHandler(echoServer({ hideUnauthorizedTools: hide }));
    try {
      for (const method of ["tools/list", "prompts/list", "resources/list", "resources/templates/list"]) {
        const { result } = await answerOf(await handler(modernPost(method)));
        assert.equal(result?.ttlMs, 0, method);
        assert.equal(result?.cacheScope, scope, method);
      }
    } finally {
      await handler.close();
    }
  }
});

Deno.test("an unknown resource answers invalid params with the URI (SEP-2164)", async () => {
  const handler = toFetchHandler(echoServer());
  try {
    const answer = await answerOf(await handler(modernPost("resources/read", { uri: "file:///nope" })));
    // -32002 on 2025 sessions; the 2026-07-28 codec spells resource-not-found -32602.
    assert.equal(answer.error?.code, -32602);
    assert.deepEqual(answer.error?.data, { uri: "file:///nope" });
    assert.equal(answer.error?.message, "Resource not found");
  } finally {
    await handler.close();
  }
});

Deno.test("the front checks Host and headers on the modern leg: 421 for a foreign Host, 400 for Mcp-Method", async () => {
  const handler = toFetchHandler(echoServer());
  try {
    const rebinding = new Request("http://evil.example/mcp", modernPost("tools/list"));
    const refused = await handler(rebinding);
    await refused.body?.cancel();
    assert.equal(refused.status, 421);
    const mismatch = await answerOf(
      await handler(modernPost("tools/list", {}, { headers: { "mcp-method": "prompts/list" } })),
    );
    assert.equal(mismatch.status, 400);
    assert.ok(mismatch.error, "a mismatched Mcp-Method header is refused");
    const missing = await answerOf(
      await handler(modernPost("tools/call", { name: "echo", arguments: { text: "x" } }, {
        headers: { "mcp-name": null },
      })),
    );
    assert.equal(missing.status, 400);
  } finally {
    await handler.close();
  }
});

Deno.test("Mcp-Param headers declared with x-mcp-header must match the arguments (SEP-2243)", async () => {
  const server = createToolServer({ name: "regions" }).tool("where", {
    description: "Echo the region",
    input: {
      type: "object",
      properties: { region: { type: "string", "x-mcp-header": "Region" } },
      required: ["region"],
    },
  }, (args) => String(args.region));
  const handler = toFetchHandler(server);
  try {
    const call = { name: "where", arguments: { region: "eu" } };
    const ok = await answerOf(
      await handler(modernPost("tools/call", call, { headers: { "mcp-param-region": "eu" } })),
    );
    assert.deepEqual(ok.result?.content, [{ type: "text", text: "eu" }]);
    const wrong = await answerOf(
      await handler(modernPost("tools/call", call, { headers: { "mcp-param-region": "us" } })),
    );
    assert.equal(wrong.status, 400);
    assert.ok(wrong.error);
  } finally {
    await handler.close();
  }
});

Deno.test("a tool registered while serving reaches an open subscriptions/listen stream", async () => {
  const server = echoServer();
  const handler = toFetchHandler(server);
  try {
    const listen = await handler(
      modernPost("subscriptions/listen", { notifications: { toolsListChanged: true } }),
    );
    assert.equal(listen.status, 200);
    const reader = listen.body!.pipeThrough(new TextDecoderStream()).getReader();
    let seen = "";
    const until = async (text: string) => {
      const deadline = Date.now() + 5_000;
      while (!seen.includes(text)) {
        assert.ok(Date.now() < deadline, `timed out waiting for ${text}`);
        const chunk = await reader.read();
        if (chunk.done) break;
        seen += chunk.value;
      }
    };
    await until("notifications/subscriptions/acknowledged");
    server.tool("late", { description: "Added while serving", input: z.object({}) }, () => "late");
    await until("notifications/tools/list_changed");
    await reader.cancel();
  } finally {
    await handler.close();
  }
});

Deno.test("a per-request instance registers only the method its checked Mcp-Method header names", async () => {
  const registered = (method?: string) => {
    const sdk = createModernServer(echoServer(), { method }).server;
    return ["tools/list", "tools/call", "tasks/get", "prompts/get", "completion/complete"].filter((name) => {
      try {
        sdk.assertCanSetRequestHandler(name);
        return false;
      } catch {
        return true;
      }
    });
  };
  assert.deepEqual(registered("tools/call"), ["tools/call"]);
  assert.deepEqual(registered("tasks/get"), ["tasks/get"]);
  const all = ["tools/list", "tools/call", "tasks/get", "prompts/get", "completion/complete"];
  assert.deepEqual(registered(), all);
  assert.deepEqual(registered("no/such-method"), all, "an unknown method registers them all");

  const seen: (string | undefined)[] = [];
  const server = echoServer();
  const modern = createModernHandler(server, {
    factory: (tools, options) => {
      seen.push(options?.method);
      return createModernServer(tools, options);
    },
  });
  try {
    const call = await answerOf(
      await modern.fetch(modernPost("tools/call", { name: "echo", arguments: { text: "x" } })),
    );
    assert.deepEqual(call.result?.content, [{ type: "text", text: "x" }]);
    const prompts = await answerOf(await modern.fetch(modernPost("prompts/list")));
    assert.ok(Array.isArray(prompts.result?.prompts));
    const missing = await answerOf(
      await modern.fetch(modernPost("tools/call", {}, { headers: { "mcp-method": null } })),
    );
    assert.ok(missing.error, "a request without a usable Mcp-Method is refused before the factory");
    assert.deepEqual(seen, ["tools/call", "prompts/list"]);
  } finally {
    await modern.close();
  }
});
