import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startModelServer } from "../src/models/testing/mod.ts";
import { CONFIG, tempDir } from "./_cli_harness.ts";
import { freePort } from "./_ports.ts";
import { startRuntime, until } from "./_agent_harness.ts";

const FIXTURE = fileURLToPath(new URL("./fixtures/stdio_tool_server.ts", import.meta.url));

Deno.test({
  name: "a manifest's stdio MCP server is started and its tool is used by the agent (chat API, no streaming)",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using dir = await tempDir();
  await using model = startModelServer({
    respond: (request) =>
      request.messages.at(-1)!.role === "user"
        ? { toolCalls: [{ name: "local__echo", arguments: { text: "hi from stdio" } }] }
        : { text: `echoed: ${request.messages.at(-1)!.content}` },
  });
  const port = freePort();
  const manifests = join(dir.path, "agents");
  await Deno.mkdir(manifests);
  await Deno.writeTextFile(
    join(manifests, "local.agent.json"),
    JSON.stringify({
      name: "local",
      start: true,
      model: "openai-compatible:test-model",
      stream: false,
      servers: {
        local: {
          command: Deno.execPath(),
          args: ["run", "--allow-env", "--allow-read", `--config=${CONFIG}`, FIXTURE],
        },
      },
      triggers: [{ type: "webhook", webhook_path: "/go", webhook_port: port }],
    }),
  );
  await using runtime = await startRuntime(
    ["--data-dir", join(dir.path, "state"), "--manifests", manifests],
    { OPENAI_COMPATIBLE_BASE_URL: model.url },
  );
  const { client } = runtime;
  await until(
    "the manifest process runs",
    async () => (await client.getProcess("local")).state === "running",
  );
  const answer = await fetch(`http://127.0.0.1:${port}/go`, { method: "POST", body: "{}" });
  assert.equal(answer.status, 202);
  await answer.body?.cancel();
  await until("the run", async () => (await client.listRuns("local")).runs[0]?.status === "succeeded");
  const [run] = (await client.listRuns("local")).runs;
  assert.equal(run.reply, "echoed: hi from stdio");
  assert.deepEqual(model.requests.map((r) => [r.api, r.stream]), [["chat", false], ["chat", false]]);
  const status = await client.getProcess("local");
  const agent = status.agent as { model: string; tools: number };
  assert.equal(agent.model, "openai-compatible:test-model");
  assert.equal(agent.tools, 4);
});
