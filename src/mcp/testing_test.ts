import assert from "node:assert/strict";
import { z } from "zod";
import { createTestClient, type TestRevision } from "./testing.ts";
import { createToolServer } from "./tool_server.ts";
import type { ToolServer } from "./tool_server.ts";
import { Logger, memorySink } from "../log.ts";

/** `whoami` answers its x-user header; `ask`, `summarise` and `where` ask the client for input. */
function askingServer(): ToolServer {
  return createToolServer({ name: "asking", logger: new Logger("test", { sink: memorySink() }) })
    .tool("whoami", {}, (_, ctx) => ctx.meta["x-user"] ?? "nobody")
    .tool("caps", {}, (_, ctx) =>
      (["elicitation/create", "sampling/createMessage", "roots/list"] as const)
        .map((method) => `${method}=${ctx.session.supports(method)}`).join(" "))
    .tool("ask", { input: z.object({ question: z.string() }) }, async ({ question }, ctx) => {
      const answer = await ctx.session.elicit({
        message: question,
        requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      });
      return answer.action === "accept" ? `hello ${answer.content?.name}` : `no answer (${answer.action})`;
    })
    .tool("summarise", {}, async (_, ctx) => {
      const reply = await ctx.session.sample({
        messages: [{ role: "user", content: { type: "text", text: "summarise" } }],
        maxTokens: 20,
      });
      return reply.content.type === "text" ? `model said: ${reply.content.text}` : "no text";
    })
    .tool("where", {}, async (_, ctx) => {
      const { roots } = await ctx.session.listRoots();
      return roots.map((root) => root.uri).join(",");
    });
}

const text = (result: { content: unknown }) => (result.content as { text: string }[])[0].text;

for (const revision of ["2025-11-25", "2026-07-28"] as TestRevision[]) {
  Deno.test(`the ${revision} test client answers elicitation, sampling and roots with its options`, async () => {
    await using client = await createTestClient(askingServer(), {
      revision,
      onElicit: (params) => ({ action: "accept", content: { name: `ada (${params.message})` } }),
      onSample: () => ({ role: "assistant", model: "stub", content: { type: "text", text: "short" } }),
      roots: [{ uri: "file:///work" }, { uri: "file:///tmp" }],
    });
    assert.equal(client.protocolVersion, revision);
    assert.equal(text(await client.callTool("ask", { question: "name?" })), "hello ada (name?)");
    assert.equal(text(await client.callTool("summarise")), "model said: short");
    assert.equal(text(await client.callTool("where")), "file:///work,file:///tmp");
  });

  Deno.test(`the ${revision} test client sends its headers and per-call headers over them`, async () => {
    await using client = await createTestClient(askingServer(), { revision, headers: { "X-User": "ada" } });
    assert.equal(text(await client.callTool("whoami")), "ada");
    assert.equal(text(await client.callTool("whoami", {}, { headers: { "x-user": "bob" } })), "bob");
  });

  Deno.test(`the ${revision} test client declares the capabilities of its answer options only`, async () => {
    await using bare = await createTestClient(askingServer(), { revision });
    assert.equal(
      text(await bare.callTool("caps")),
      "elicitation/create=false sampling/createMessage=false roots/list=false",
    );
    // Refused: an error result on a 2025 session, a JSON-RPC error naming the capability on 2026-07-28.
    const refused = await bare.callTool("ask", { question: "name?" }).then(
      (result) => result.isError === true ? "error result" : "answered",
      (error: Error) => error.message,
    );
    assert.match(refused, revision === "2026-07-28" ? /did not declare: elicitation/ : /^error result$/);
    await using asking = await createTestClient(askingServer(), {
      revision,
      onElicit: () => ({ action: "decline" }),
    });
    assert.equal(
      text(await asking.callTool("caps")),
      "elicitation/create=true sampling/createMessage=false roots/list=false",
    );
    assert.equal(text(await asking.callTool("ask", { question: "name?" })), "no answer (decline)");
  });
}

Deno.test("an unknown revision is refused", async () => {
  await assert.rejects(
    createTestClient(askingServer(), { revision: "2024-11-05" as TestRevision }),
    /revision: "2025-11-25" or "2026-07-28", got 2024-11-05/,
  );
});
