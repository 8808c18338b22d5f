import assert from "node:assert/strict";
import { createToolServer } from "../tool_server.ts";
import { toFetchHandler } from "../transports/to_fetch_handler.ts";
import { modernPost } from "./_test_modern.ts";

function reportingServer() {
  return createToolServer({ name: "reporting" }).tool(
    "work",
    { description: "Reports as it works" },
    async (_a, ctx) => {
      await ctx.session.progress(1, 2, "half");
      await ctx.session.log("info", "working");
      await ctx.session.log("debug", "details");
      return [
        ctx.session.era,
        ctx.session.supports("elicitation/create"),
        ctx.session.supports("sampling/createMessage"),
      ].join(" ");
    },
  );
}

async function messagesOf(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  return text.split("\n").filter((l) => l.startsWith("data:")).map((l) => JSON.parse(l.slice(5)));
}

Deno.test("the modern session: era, capabilities from the envelope, progress to the token, logs at the asked level", async () => {
  const handler = toFetchHandler(reportingServer());
  try {
    const response = await handler(modernPost("tools/call", { name: "work", arguments: {} }, {
      capabilities: { elicitation: {} },
      meta: { progressToken: "p1", "io.modelcontextprotocol/logLevel": "info" },
    }));
    const messages = await messagesOf(response);
    const methods = messages.map((m) => m.method ?? "result");
    assert.deepEqual(methods, ["notifications/progress", "notifications/message", "result"]);
    assert.deepEqual((messages[0].params as Record<string, unknown>).progressToken, "p1");
    assert.equal((messages[1].params as Record<string, unknown>).data, "working");
    const result = messages[2].result as { content: { text: string }[] };
    assert.equal(result.content[0].text, "modern true false");
  } finally {
    await handler.close();
  }
});

Deno.test("without a log level in the envelope a modern request gets no log messages", async () => {
  const handler = toFetchHandler(reportingServer());
  try {
    const response = await handler(modernPost("tools/call", { name: "work", arguments: {} }));
    const text = await response.text();
    assert.doesNotMatch(text, /notifications\/message/);
    assert.match(text, /modern false false/);
  } finally {
    await handler.close();
  }
});
