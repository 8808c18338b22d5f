import assert from "node:assert/strict";
import {
  createMcpHandler,
  type McpHttpHandler,
  Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { ApiKeyAuth } from "../auth/api_key_auth.ts";
import { authMiddleware } from "../auth/auth_middleware.ts";
import { DEAD_SESSION } from "../_test_context.ts";
import type { CallInfo } from "../pipeline.ts";
import * as requests from "../requests.ts";
import { createToolServer, type ToolServer } from "../tool_server.ts";
import { type InputRounds, sessionWithRounds } from "./input_rounds.ts";
import { credentialOf, withInputRounds } from "./with_input_rounds.ts";
import { answerOf, modernPost, type RpcAnswer } from "./_test_modern.ts";

const FORM = { message: "Name?", requestedSchema: { type: "object" as const, properties: {} } };

function headersOf(request: Request): Record<string, string> {
  return Object.fromEntries([...request.headers].map(([name, value]) => [name.toLowerCase(), value]));
}

/** A v2 handler serving `server`'s tools/call and prompts/get through input rounds. */
function modernHandler(server: ToolServer): McpHttpHandler {
  const info = (ctx: ServerContext, rounds: InputRounds): CallInfo => ({
    meta: ctx.http?.req ? headersOf(ctx.http.req) : {},
    session: sessionWithRounds({ ...DEAD_SESSION, era: "modern" }, rounds),
    signal: ctx.mcpReq.signal,
  });
  return createMcpHandler(() => {
    const sdk = new Server({ name: "t", version: "1" }, { capabilities: { tools: {}, prompts: {} } });
    sdk.setRequestHandler("tools/call", (request, ctx) => {
      const { name, arguments: args } = request.params;
      const meta = ctx.http?.req ? headersOf(ctx.http.req) : {};
      return withInputRounds(
        server,
        ctx,
        { method: "tools/call", name, args, meta },
        (rounds) => requests.callTool(server, name, args, info(ctx, rounds)),
      ) as never;
    });
    sdk.setRequestHandler("prompts/get", (request, ctx) => {
      const { name, arguments: args } = request.params;
      return withInputRounds(
        server,
        ctx,
        { method: "prompts/get", name, args, meta: {} },
        (rounds) => requests.getPrompt(server, name, args, info(ctx, rounds)),
      ) as never;
    });
    return sdk;
  }, { legacy: "reject" });
}

/** A 2026-07-28 request to `handler` (the client declares elicitation), and its JSON-RPC answer. */
async function post(
  handler: McpHttpHandler,
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<RpcAnswer> {
  const request = modernPost(method, params, { headers, capabilities: { elicitation: {} } });
  return await answerOf(await handler.fetch(request));
}

function greeter(): ToolServer {
  const server = createToolServer({ settings: {} });
  server.tool("greet", {}, async (_args, ctx) => {
    const answer = await ctx.session.elicit(FORM, { key: "user_name" });
    return `Hello, ${answer.content?.name}!`;
  });
  server.prompt(
    "brief",
    {},
    async (_args, ctx) => `Context: ${(await ctx.session.elicit(FORM)).content?.name}`,
  );
  server.tool("summarise", {}, async (_args, ctx) => {
    const reply = await ctx.session.sample({ messages: [], maxTokens: 10 });
    return reply.model;
  });
  return server;
}

Deno.test("a modern tools/call answers input_required, then its result once the client answers", async () => {
  const handler = modernHandler(greeter());
  try {
    const first = await post(handler, "tools/call", { name: "greet", arguments: {} });
    assert.equal(first.result?.resultType, "input_required");
    assert.deepEqual(first.result?.inputRequests, {
      user_name: { method: "elicitation/create", params: FORM },
    });
    const answer = { user_name: { action: "accept", content: { name: "Ada" } } };
    const second = await post(handler, "tools/call", {
      name: "greet",
      arguments: {},
      inputResponses: answer,
      requestState: first.result?.requestState,
    });
    assert.deepEqual(second.result?.content, [{ type: "text", text: "Hello, Ada!" }]);
    const tampered = await post(handler, "tools/call", {
      name: "greet",
      arguments: {},
      inputResponses: answer,
      requestState: `${first.result?.requestState}x`,
    });
    assert.equal(tampered.error?.code, -32602);
    assert.equal(tampered.error?.message, "Invalid or expired requestState");
  } finally {
    await handler.close();
  }
});

Deno.test("a modern prompts/get asks the same way", async () => {
  const handler = modernHandler(greeter());
  try {
    const first = await post(handler, "prompts/get", { name: "brief" });
    assert.deepEqual(Object.keys(first.result?.inputRequests ?? {}), ["e1"]);
    const second = await post(handler, "prompts/get", {
      name: "brief",
      inputResponses: { e1: { action: "accept", content: { name: "notes" } } },
      requestState: first.result?.requestState,
    });
    assert.deepEqual(second.result?.messages, [{
      role: "user",
      content: { type: "text", text: "Context: notes" },
    }]);
  } finally {
    await handler.close();
  }
});

Deno.test("a state minted for one caller's credential is refused for another's", async () => {
  const server = greeter().use(authMiddleware(new ApiKeyAuth({ keys: { "key-a": "a", "key-b": "b" } })));
  assert.equal(credentialOf(server, { "x-api-key": "key-a" }), "x-api-key: key-a");
  assert.equal(
    credentialOf(server, { authorization: "Bearer t", "x-other": "1" }),
    "authorization: Bearer t",
  );
  assert.equal(credentialOf(server, {}), undefined);
  const handler = modernHandler(server);
  try {
    const first = await post(handler, "tools/call", { name: "greet", arguments: {} }, {
      "x-api-key": "key-a",
    });
    assert.equal(first.result?.resultType, "input_required");
    const retry = {
      name: "greet",
      arguments: {},
      inputResponses: { user_name: { action: "accept", content: { name: "Eve" } } },
      requestState: first.result?.requestState,
    };
    const stolen = await post(handler, "tools/call", retry, { "x-api-key": "key-b" });
    assert.equal(stolen.error?.code, -32602);
    const own = await post(handler, "tools/call", retry, { "x-api-key": "key-a" });
    assert.deepEqual(own.result?.content, [{ type: "text", text: "Hello, Eve!" }]);
  } finally {
    await handler.close();
  }
});

Deno.test("a call asking for a capability the request did not declare is answered -32021 with HTTP 400", async () => {
  const handler = modernHandler(greeter());
  try {
    const reply = await post(handler, "tools/call", { name: "summarise", arguments: {} });
    assert.equal(reply.status, 400);
    assert.equal(reply.error?.code, -32021);
    assert.deepEqual(reply.error?.data, { requiredCapabilities: { sampling: {} } });
  } finally {
    await handler.close();
  }
});
