import assert from "node:assert/strict";
import { Client as ModernClient } from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdio } from "@modelcontextprotocol/client/stdio";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const SERVE = {
  command: Deno.execPath(),
  args: ["run", "-A", "main.ts", "serve", "examples/everything_server.ts"],
  stderr: "ignore" as const,
};

Deno.test({
  name: "stdio serves a 2026-07-28 client and a 2025-11-25 client from the same command",
  async fn() {
    const modern = new ModernClient({ name: "modern", version: "1.0.0" }, {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
    });
    const legacy = new Client({ name: "legacy", version: "1.0.0" });
    try {
      await modern.connect(new ModernStdio(SERVE), { timeout: 30_000 });
      await legacy.connect(new StdioClientTransport(SERVE), { timeout: 30_000 });
      const call = { name: "test_simple_text", arguments: {} };
      const modernResult = await modern.callTool(call);
      const legacyResult = await legacy.callTool(call);
      assert.deepEqual(modernResult.content, legacyResult.content);
      assert.equal(modernResult.content[0].type, "text");
      const tools = await modern.listTools();
      assert.ok(tools.tools.some((t) => t.name === "test_simple_text"));
    } finally {
      await modern.close();
      await legacy.close();
    }
  },
});
