/**
 * A generated server runs on the framework's runtime, so it serves both protocol revisions: a plan
 * server behind `toFetchHandler`, an SDK v2 client pinned to 2026-07-28, a real upstream on
 * 127.0.0.1; the gated operation's approval goes through an `input_required` round.
 *
 * @module
 */

import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Logger, memorySink } from "../../log.ts";
import { toFetchHandler } from "../../mcp/mod.ts";
import { petPlan, TOKEN } from "../_test_plans.ts";
import { envOf } from "./_test_runtime.ts";
import { buildPlanServer } from "./plan_server.ts";

/** Serves `handler` on an ephemeral 127.0.0.1 port. */
async function loopback(handler: (request: Request) => Response | Promise<Response>) {
  const listening = Promise.withResolvers<number>();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: (addr) => listening.resolve(addr.port) },
    handler,
  );
  const port = await listening.promise;
  return {
    base: `http://127.0.0.1:${port}`,
    [Symbol.asyncDispose]: async () => {
      await server.shutdown();
    },
  };
}

function errorCode(result: { content: unknown; isError?: boolean }): string | undefined {
  if (!result.isError) return undefined;
  const [block] = result.content as Array<{ text: string }>;
  return JSON.parse(block.text).error.code;
}

Deno.test("a plan server serves a 2026-07-28 client: lists, calls, and approves over an input_required round", async () => {
  const upstreamSeen: string[] = [];
  await using upstream = await loopback((request) => {
    const url = new URL(request.url);
    upstreamSeen.push(`${request.method} ${url.pathname} ${request.headers.get("authorization")}`);
    return Response.json({ id: url.pathname.split("/").at(-1), name: "Rex" });
  });
  const server = buildPlanServer(petPlan(), {
    env: envOf({ MCPCAST_BASE_URL: `${upstream.base}/v1` }),
    operatorLog: () => undefined,
    logger: new Logger("test", { sink: memorySink() }),
  });
  const handler = toFetchHandler(server);
  await using served = await loopback((request) => handler(request));

  const wire: string[] = [];
  const asked: string[] = [];
  const client = new Client({ name: "modern-pets", version: "1.0.0" }, {
    capabilities: { elicitation: {} },
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  client.setRequestHandler("elicitation/create", (request) => {
    asked.push(String(request.params.message));
    return { action: "accept", content: { approve: true } };
  });
  const transport = new StreamableHTTPClientTransport(new URL(`${served.base}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      const body = typeof init?.body === "string" ? init.body : "";
      if (body.includes('"tools/call"')) wire.push(`${body} -> ${await response.clone().text()}`);
      return response;
    },
  });
  try {
    await client.connect(transport);
    assert.equal(transport.sessionId, undefined, "no 2025-era session: the client speaks 2026-07-28");
    const tools = await client.listTools();
    assert.ok(tools.tools.some((tool) => tool.name === "get_pet"));
    assert.ok(tools.tools.some((tool) => tool.name === "delete_pet"));

    const got = await client.callTool({ name: "get_pet", arguments: { petId: "7" } });
    assert.equal(errorCode(got as { content: unknown }), undefined);
    assert.match(JSON.stringify(got.content), /Rex/);
    assert.deepEqual(upstreamSeen, [`GET /v1/pets/7 Bearer ${TOKEN}`]);

    const deleted = await client.callTool({ name: "delete_pet", arguments: { petId: "9" } });
    assert.equal(errorCode(deleted as { content: unknown }), undefined);
    assert.equal(asked.length, 1, "the client's user was asked once");
    assert.match(asked[0], /delete_pet/);
    assert.deepEqual(upstreamSeen.at(-1), `DELETE /v1/pets/9 Bearer ${TOKEN}`);
    const deletes = wire.filter((line) => line.includes("delete_pet"));
    assert.equal(deletes.length, 2, "two rounds of the gated call");
    assert.match(deletes[0], /"resultType":"input_required"/);
    assert.match(deletes[1], /"inputResponses"/);
    assert.equal(upstreamSeen.length, 2, "the upstream saw the delete once, after the approval");
  } finally {
    await client.close();
    await handler.close();
  }
});
