import assert from "node:assert/strict";
import { join } from "node:path";
import { createTestClient, verifyAuditLog } from "@agentry/agentry/mcp";
import buildServer from "./weather_server.ts";

Deno.test("the docs/mcp.md weather server answers its key holder, refuses others, and audits both", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const auditLog = join(dir, "audit.jsonl");
    const server = buildServer({ auditLog, auditSecret: "change-me" });
    await using client = await createTestClient(server, { headers: { "x-api-key": "dev-key" } });
    const result = await client.callTool("forecast", { city: "Lisbon" });
    assert.deepEqual(result.content, [{ type: "text", text: '{"city":"Lisbon","sky":"sunny"}' }]);
    const refused = await client.callTool("forecast", { city: "Oslo" }, {
      headers: { "x-api-key": "wrong" },
    });
    const text = refused.content[0].type === "text" ? refused.content[0].text : "";
    assert.equal(JSON.parse(text).error.code, "AUTHENTICATION_ERROR");
    await server.shutdown();
    const report = await verifyAuditLog(auditLog, { keys: ["change-me"] });
    assert.deepEqual([report.ok, report.entries], [true, 2]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
