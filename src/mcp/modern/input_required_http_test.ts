import assert from "node:assert/strict";
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from "@modelcontextprotocol/client";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { serveOnLoopback } from "../transports/_test_serve.ts";
import { toFetchHandler } from "../transports/to_fetch_handler.ts";
import { createToolServer } from "../tool_server.ts";

/** A server whose one tool asks two questions, one after the other, and counts its runs. */
function askingServer() {
  const runs = { count: 0 };
  const server = createToolServer({ settings: {} }).tool("book", {}, async (_args, ctx) => {
    runs.count++;
    const form = (field: string) => ({
      message: `Which ${field}?`,
      requestedSchema: { type: "object" as const, properties: { [field]: { type: "string" as const } } },
    });
    const day = await ctx.session.elicit(form("day"));
    const room = await ctx.session.elicit(form("room"));
    return `Booked ${room.content?.room} on ${day.content?.day}`;
  });
  return { server, runs };
}

function answer(message: string): { action: "accept"; content: Record<string, string> } {
  return message === "Which day?"
    ? { action: "accept", content: { day: "Tuesday" } }
    : { action: "accept", content: { room: "B2" } };
}

Deno.test("over HTTP a 2026-07-28 client answers input_required rounds and a 2025 client answers requests", async () => {
  const { server, runs } = askingServer();
  await using served = await serveOnLoopback(toFetchHandler(server));
  const url = new URL(`${served.base}/mcp`);
  const modern = new ModernClient({ name: "modern", version: "1.0.0" }, {
    capabilities: { elicitation: {} },
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  const modernAsked: string[] = [];
  modern.setRequestHandler("elicitation/create", (request) => {
    const { message } = request.params;
    modernAsked.push(message);
    return answer(message);
  });
  const legacy = new Client({ name: "legacy", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  const legacyAsked: string[] = [];
  legacy.setRequestHandler(ElicitRequestSchema, (request) => {
    legacyAsked.push(request.params.message);
    return answer(request.params.message);
  });
  try {
    await modern.connect(new ModernTransport(url));
    const booked = await modern.callTool({ name: "book", arguments: {} });
    assert.deepEqual(booked.content, [{ type: "text", text: "Booked B2 on Tuesday" }]);
    assert.deepEqual(modernAsked, ["Which day?", "Which room?"]);
    assert.equal(runs.count, 3, "the call ran once per round");

    await legacy.connect(new StreamableHTTPClientTransport(url));
    const again = await legacy.callTool({ name: "book", arguments: {} });
    assert.deepEqual(again.content, [{ type: "text", text: "Booked B2 on Tuesday" }]);
    assert.deepEqual(legacyAsked, ["Which day?", "Which room?"]);
    assert.equal(runs.count, 4, "a 2025 session waits inside one run");
  } finally {
    await modern.close();
    await legacy.close();
  }
});
