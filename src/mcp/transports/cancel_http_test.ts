import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { z } from "zod";
import { createToolServer, type ToolServer } from "../tool_server.ts";
import { serveOnLoopback } from "./_test_serve.ts";
import { toFetchHandler } from "./to_fetch_handler.ts";

/** A server whose `wait` tool runs until `ms` pass or its signal aborts, noting when it saw the abort. */
function waitingServer(aborts: Map<string, number>): ToolServer {
  return createToolServer({ name: "waiting" }).tool(
    "wait",
    { description: "Waits", input: z.object({ tag: z.string(), ms: z.number() }) },
    ({ tag, ms }, ctx) =>
      new Promise<string>((resolve) => {
        const timer = setTimeout(() => resolve(`${tag} done`), ms);
        ctx.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          aborts.set(tag, Date.now());
          resolve(`${tag} cancelled`);
        }, { once: true });
      }),
  );
}

async function waitUntil(condition: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

for (const revision of ["2026-07-28", "2025-11-25"] as const) {
  Deno.test(`a ${revision} client aborting its second and third call on one connection aborts each handler within a second`, async () => {
    const aborts = new Map<string, number>();
    await using served = await serveOnLoopback(toFetchHandler(waitingServer(aborts)));
    const client = new Client({ name: "canceller", version: "1.0.0" }, {
      versionNegotiation: { mode: revision === "2026-07-28" ? { pin: revision } : "legacy" },
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${served.base}/mcp`)));
    try {
      const first = await client.callTool({ name: "wait", arguments: { tag: "first", ms: 0 } });
      assert.deepEqual(first.content, [{ type: "text", text: "first done" }]);
      for (const tag of ["second", "third"]) {
        const controller = new AbortController();
        const call = client.callTool({ name: "wait", arguments: { tag, ms: 20_000 } }, {
          signal: controller.signal,
        });
        const failed = call.then(() => false, () => true);
        // Past the modern leg's 100 ms: the answer has become a stream by then.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const abortedAt = Date.now();
        controller.abort();
        assert.equal(await failed, true);
        await waitUntil(() => aborts.has(tag), 2_000);
        const seen = aborts.get(tag);
        assert.ok(seen !== undefined, `the ${tag} call's handler never saw the abort`);
        assert.ok(
          seen - abortedAt < 1_000,
          `the ${tag} call's handler saw the abort after ${seen - abortedAt} ms`,
        );
      }
    } finally {
      await client.close();
    }
  });
}

Deno.test("a 2026-07-28 call answered within the grace keeps its JSON body; a slower one comes as one SSE message", async () => {
  await using served = await serveOnLoopback(toFetchHandler(waitingServer(new Map())));
  const post = (id: number, ms: number) =>
    fetch(`${served.base}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "wait",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: {
          name: "wait",
          arguments: { tag: `t${id}`, ms },
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1.0.0" },
          },
        },
      }),
    });
  const quick = await post(1, 0);
  assert.equal(quick.headers.get("content-type"), "application/json");
  assert.equal((await quick.json()).result.content[0].text, "t1 done");
  const slow = await post(2, 300);
  assert.equal(slow.status, 200);
  assert.equal(slow.headers.get("content-type"), "text/event-stream");
  const text = await slow.text();
  const data = text.split("\n").filter((line) => line.startsWith("data: ")).map((line) => line.slice(6));
  assert.match(text, /^event: message\n/);
  assert.equal(JSON.parse(data.join("\n")).result.content[0].text, "t2 done");
});
