import assert from "node:assert/strict";
import { z } from "zod";
import { createToolServer } from "./tool_server.ts";
import { createTestClient } from "./testing.ts";
import { callToolAs } from "./delegate.ts";

Deno.test("callToolAs runs another server's tool through its pipeline with the caller's headers", async () => {
  const inner = createToolServer({ name: "inner" });
  const seen: string[] = [];
  inner.use(async (ctx, next) => {
    seen.push(`${ctx.name}:${ctx.meta["x-caller"]}`);
    return await next();
  });
  inner.tool("double", { input: z.object({ n: z.number() }) }, ({ n }) => String(n * 2));
  const outer = createToolServer({ name: "outer" });
  outer.tool(
    "call",
    { input: z.object({ name: z.string(), args: z.record(z.string(), z.unknown()) }) },
    ({ name, args }, ctx) => callToolAs(inner, name, args, ctx),
  );
  await using client = await createTestClient(outer, { headers: { "x-caller": "ann" } });
  const ok = await client.callTool("call", { name: "double", args: { n: 21 } });
  assert.deepEqual(ok.content, [{ type: "text", text: "42" }]);
  assert.deepEqual(seen, ["double:ann"]);
  const invalid = await client.callTool("call", { name: "double", args: { n: "x" } });
  assert.equal(invalid.isError, true);
  assert.match(JSON.stringify(invalid.content), /VALIDATION_ERROR/);
  const missing = await client.callTool("call", { name: "nope", args: {} });
  assert.match(JSON.stringify(missing.content), /TOOL_NOT_FOUND/);
  assert.deepEqual(seen, ["double:ann"]);
});
