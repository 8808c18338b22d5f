import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Logger, memorySink } from "../../log.ts";
import { createToolServer } from "../tool_server.ts";
import { run } from "./run.ts";

Deno.test("run over node:http (headTimeoutMs) serves a 2026-07-28 client: discover, progress on the stream, the result", async () => {
  const server = createToolServer({
    name: "steps",
    instructions: "Call steps.",
    logger: new Logger("agentry.mcp", { sink: memorySink() }),
  }).tool("steps", { description: "Three steps" }, async (_args, ctx) => {
    for (let step = 1; step <= 3; step++) await ctx.session.progress(step, 3, `step ${step}`);
    return "done";
  });
  const served = await run(server, {
    transport: "http",
    port: 0,
    headTimeoutMs: 5_000,
    onListen: () => undefined,
  });
  const client = new Client({ name: "run-modern", version: "1.0.0" }, {
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url!)));
    assert.equal(client.getServerVersion()?.name, "steps");
    assert.equal(client.getInstructions(), "Call steps.");
    const seen: number[] = [];
    const result = await client.callTool({ name: "steps", arguments: {} }, {
      onprogress: (p) => void seen.push(p.progress),
    });
    assert.deepEqual(result.content, [{ type: "text", text: "done" }]);
    assert.deepEqual(seen, [1, 2, 3]);
  } finally {
    await client.close();
    await served.close();
  }
});
