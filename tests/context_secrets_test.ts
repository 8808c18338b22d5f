/**
 * End to end over a real socket: the context and secret routes, and planted secret values that must
 * never come back in a response body, a log line or a journal file.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { ControlServer } from "../src/api/mod.ts";
import { RuntimeApiError, RuntimeClient } from "../src/api/client.ts";
import { formatLogLine, Logger, memorySink } from "../src/log.ts";
import { AgentRuntime } from "../src/runtime/mod.ts";

const TOKEN = "context-secrets-token-81c4";

async function filesUnder(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) files.push(...await filesUnder(path));
    else if (entry.isFile) files.push(path);
  }
  return files;
}

Deno.test("context and secret routes over HTTP never reveal a planted secret in answers, logs or journal files", async () => {
  const plant = {
    literal: `plant-${crypto.randomUUID()}`,
    env: `plant-${crypto.randomUUID()}`,
    rotated: `plant-${crypto.randomUUID()}`,
    refused: `plant-${crypto.randomUUID()}`,
  };
  const dataDir = await Deno.makeTempDir({ prefix: "agentry_ctx_secrets_" });
  const sink = memorySink();
  const runtime = new AgentRuntime({ dataDir, logger: new Logger("agentry", { sink }) });
  const server = new ControlServer(runtime, {
    port: 0,
    authToken: TOKEN,
    allowedEnvVars: ["PLANT_VAR"],
    env: (name) => (name === "PLANT_VAR" ? plant.env : undefined),
  });
  await server.start();
  const bodies: string[] = [];
  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const text = await response.text();
    bodies.push(text);
    const body = response.status === 204 ? null : text;
    return new Response(body, { status: response.status, headers: response.headers });
  };
  const client = new RuntimeClient({ baseUrl: server.url, token: TOKEN, fetch: recording });
  const patch = (path: string, body: unknown) =>
    recording(`${server.url}/api/v1/processes/agent${path}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  try {
    await client.deploy("agent", {
      journal: { backend: "file", level: "full" },
      context: { writable_keys: ["status", "count"], initial_state: { count: 0 } },
      secrets: { enabled: true, secrets: { API: plant.literal, FROM_ENV: "${PLANT_VAR}" } },
    }, { start: true });
    const process = runtime.get("agent");
    assert.equal(process?.secrets.get("FROM_ENV"), plant.env);

    assert.deepEqual((await client.getContext("agent")).state, { count: 0 });
    const written = await client.updateContext("agent", { status: "working", count: 1 });
    assert.deepEqual(written, {
      name: "agent",
      state: { status: "working", count: 1 },
      writable_keys: ["status", "count"],
      all_keys_writable: false,
    });
    await assert.rejects(
      client.updateContext("agent", { status: "x", owner: "y" }),
      (e) => e instanceof RuntimeApiError && e.statusCode === 403 && e.code === "WRITE_DENIED",
    );

    const listed = await client.listSecrets("agent");
    assert.equal(listed.active_count, 2);
    assert.deepEqual(listed.secrets.map((s) => [s.name, s.source]), [["API", "literal"], [
      "FROM_ENV",
      "env",
    ]]);
    const rotated = await client.rotateSecret("agent", "API", { value: plant.rotated, ttl: 600 });
    assert.equal(rotated.rotated, true);
    assert.equal(process?.secrets.get("API"), plant.rotated);
    assert.equal(
      process?.secrets.redact(`a ${plant.literal} b ${plant.rotated}`),
      "a [REDACTED] b [REDACTED]",
    );
    assert.equal((await patch("/secrets/API", { value: plant.refused, extra: plant.refused })).status, 422);
    assert.equal((await patch("/secrets/GHOST", { value: plant.refused })).status, 404);
    assert.equal((await patch("/secrets/API", { value: plant.refused, ttl: -1 })).status, 400);
    assert.equal((await client.getProcess("agent")).secrets.active, 2);
    assert.deepEqual(await client.revokeSecrets("agent"), { name: "agent", secrets_revoked: true });
    assert.equal((await client.listSecrets("agent")).active_count, 0);
    await client.restartProcess("agent");
    assert.equal(process?.secrets.get("API"), plant.literal, "a restart resolves from config again");
    const journal = await client.getJournal("agent", { limit: 500 });
    const types = new Set(journal.entries.map((e) => e.entry_type));
    assert.ok(types.has("context_update") && types.has("secret_access") && types.has("api_request"));
    await client.removeProcess("agent");
  } finally {
    await client.close();
    await server.stop();
    await runtime.close();
  }
  try {
    const log = sink.records.map(formatLogLine).join("\n");
    assert.match(log, /PATCH/);
    const journalFiles = await filesUnder(join(dataDir, "journal"));
    assert.ok(journalFiles.length > 0);
    const journalText = (await Promise.all(journalFiles.map((f) => Deno.readTextFile(f)))).join("\n");
    assert.match(journalText, /secret_access/);
    assert.ok(bodies.length >= 15);
    for (const [what, value] of Object.entries(plant)) {
      assert.ok(!bodies.some((b) => b.includes(value)), `${what} value in a response body`);
      assert.ok(!log.includes(value), `${what} value in the log`);
      assert.ok(!journalText.includes(value), `${what} value in a journal file`);
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
