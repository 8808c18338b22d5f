import assert from "node:assert/strict";
import { Client as ModernClient } from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdio } from "@modelcontextprotocol/client/stdio";

const SERVE = {
  command: Deno.execPath(),
  args: ["run", "-A", "main.ts", "serve", "examples/everything_server.ts"],
  stderr: "ignore" as const,
};

Deno.test({
  name: "over stdio a 2026-07-28 client answers a call's input_required rounds (agentry serve)",
  async fn() {
    const client = new ModernClient({ name: "modern", version: "1.0.0" }, {
      capabilities: { elicitation: {}, sampling: {}, roots: {} },
      versionNegotiation: { mode: { pin: "2026-07-28" } },
    });
    const asked: string[] = [];
    client.setRequestHandler("elicitation/create", (request) => {
      const { message } = request.params;
      asked.push(message);
      const content: Record<string, string> = message.startsWith("Step 1")
        ? { name: "Ada" }
        : { color: "blue" };
      return { action: "accept", content };
    });
    client.setRequestHandler("sampling/createMessage", () => ({
      role: "assistant",
      content: { type: "text", text: "Paris" },
      model: "test-model",
    }));
    try {
      await client.connect(new ModernStdio(SERVE), { timeout: 30_000 });
      const rounds = await client.callTool({ name: "test_input_required_result_multi_round", arguments: {} });
      assert.deepEqual(rounds.content, [{ type: "text", text: "Ada likes blue" }]);
      assert.deepEqual(asked, ["Step 1: What is your name?", "Step 2: What is your favorite color?"]);
      const sampled = await client.callTool({ name: "test_input_required_result_sampling", arguments: {} });
      assert.deepEqual(sampled.content, [{ type: "text", text: "The model answered: Paris" }]);
    } finally {
      await client.close();
    }
  },
});
