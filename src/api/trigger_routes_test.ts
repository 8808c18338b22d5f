import assert from "node:assert/strict";
import { freePort } from "../../tests/_ports.ts";
import { join } from "node:path";
import { AgentRuntime, type Invoker, MemoryProcessStore, type RunRequest } from "../runtime/mod.ts";
import { createTriggersPart, EventBus } from "../triggers/mod.ts";
import { testApi, type TestApiOptions } from "../../tests/_api_harness.ts";

/** A test API whose runtime has triggers, a recording invoker and a memory store. */
async function triggerApi(options: TestApiOptions = {}) {
  const eventBus = new EventBus();
  const runs: RunRequest[] = [];
  const invoker: Invoker = (run) => {
    runs.push(run);
    return Promise.resolve({});
  };
  const store = new MemoryProcessStore();
  const api = await testApi({
    ...options,
    makeRuntime: (o) => new AgentRuntime({ ...o, parts: [createTriggersPart({ eventBus })], invoker, store }),
  });
  const deploy = (name: string, config: Record<string, unknown> = {}, start = true) =>
    api.call("POST", "/api/v1/processes", { json: { name, config, start } });
  const waitRuns = async (count: number) => {
    for (let i = 0; i < 200 && runs.length < count; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(runs.length, count);
  };
  return Object.assign(api, { eventBus, runs, store, deploy, waitRuns });
}

Deno.test("a trigger added to a running process is live at once and fires", async () => {
  await using api = await triggerApi();
  await api.deploy("p");
  const added = await api.call("POST", "/api/v1/processes/p/triggers", {
    json: { type: "event", event_type: "go" },
  });
  assert.equal(added.status, 201);
  assert.match(added.body.trigger_id, /^event-[0-9a-f]{10}$/);
  assert.deepEqual(
    { ...added.body, trigger_id: "x" },
    {
      name: "p",
      trigger_added: true,
      trigger_id: "x",
      trigger_type: "event",
      live: true,
      effective_from: "immediate",
    },
  );
  api.eventBus.emit({ event_type: "go", data: { n: 1 } });
  await api.waitRuns(1);
  assert.equal(api.runs[0].event.trigger_id, added.body.trigger_id);
  const stored = (await api.store.list()).records[0].config;
  assert.deepEqual(stored.triggers, [{ type: "event", event_type: "go" }], "the stored deployment keeps it");
});

Deno.test("a trigger added to a created process applies from its next start", async () => {
  await using api = await triggerApi();
  await api.deploy("p", {}, false);
  const added = await api.call("POST", "/api/v1/processes/p/triggers", {
    json: { type: "event", event_type: "go" },
  });
  assert.equal(added.status, 201);
  assert.deepEqual([added.body.live, added.body.effective_from], [false, "next_start"]);
  const listing = await api.call("GET", "/api/v1/processes/p/triggers");
  assert.deepEqual(listing.body.triggers.map((t: { live: boolean }) => t.live), [false]);
  await api.call("POST", "/api/v1/processes/p/start");
  api.eventBus.emit({ event_type: "go" });
  await api.waitRuns(1);
});

Deno.test("listings carry stable ids, sources and masked secrets", async () => {
  await using api = await triggerApi();
  const port = freePort();
  await api.deploy("p", {
    triggers: [
      {
        type: "webhook",
        webhook_port: port,
        hmac_secret: "a-very-long-shared-secret",
        custom_config: { token: "t" },
      },
      { type: "event", event_type: "x" },
    ],
  });
  const listing = await api.call("GET", "/api/v1/processes/p/triggers");
  assert.equal(listing.status, 200);
  assert.equal(listing.body.count, 2);
  const [hook, event] = listing.body.triggers;
  assert.match(hook.id, /^webhook-[0-9a-f]{10}$/);
  assert.equal(hook.source, "config");
  assert.equal(hook.live, true);
  assert.equal(hook.config.hmac_secret, "***");
  assert.equal(hook.config.custom_config.token, "***");
  assert.equal(event.config.event_type, "x");
  assert.equal(listing.text.includes("a-very-long-shared-secret"), false);
});

Deno.test("an identical trigger is 409 TRIGGER_EXISTS and changes nothing", async () => {
  await using api = await triggerApi();
  await api.deploy("p", { triggers: [{ type: "cron", cron_expression: "0 9 * * *" }] });
  const again = await api.call("POST", "/api/v1/processes/p/triggers", {
    json: { type: "cron", cron_expression: "0 9 * * *", cron_timezone: null },
  });
  assert.equal(again.status, 409);
  assert.equal(again.body.error.code, "TRIGGER_EXISTS");
  assert.equal(api.runtime.get("p")!.config.triggers.length, 1);
});

Deno.test("an invalid trigger is 422 INVALID_CONFIG listing its fields", async () => {
  await using api = await triggerApi();
  await api.deploy("p");
  for (
    const [body, field] of [
      [{ type: "cron", cron_expression: "every day" }, "cron_expression"],
      [{ type: "event", event_type: "x", topic: "nope" }, "topic"],
      [{ type: "carrier-pigeon" }, "type"],
    ] as const
  ) {
    const answer = await api.call("POST", "/api/v1/processes/p/triggers", { json: body });
    assert.equal(answer.status, 422, JSON.stringify(body));
    assert.equal(answer.body.error.code, "INVALID_CONFIG");
    assert.ok(answer.body.error.details.some((d: { field: string }) => d.field === field), answer.text);
  }
  assert.equal(api.runtime.get("p")!.config.triggers.length, 0);
});

Deno.test("a trigger that cannot start (port in use) is 422 INVALID_CONFIG with an error id; nothing changes", async () => {
  await using api = await triggerApi();
  using busy = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  await api.deploy("p");
  const answer = await api.call("POST", "/api/v1/processes/p/triggers", {
    json: { type: "webhook", webhook_port: (busy.addr as Deno.NetAddr).port },
  });
  assert.equal(answer.status, 422);
  assert.equal(answer.body.error.code, "INVALID_CONFIG");
  assert.match(answer.body.error.error_id, /^err_/);
  assert.equal(answer.body.error.message, "The trigger is valid but could not be started.");
  const port = (busy.addr as Deno.NetAddr).port;
  assert.deepEqual(answer.body.error.details, [
    { field: "webhook_port", expected: `a free port (127.0.0.1:${port} is already in use)` },
  ]);
  assert.equal(api.runtime.get("p")!.config.triggers.length, 0);
  assert.ok(
    api.records.some((r) =>
      r.fields.error_id === answer.body.error.error_id && /AddrInUse/.test(String(r.fields.cause))
    ),
  );
});

Deno.test("trigger bodies get the deploy checks: ${VAR} references and paths", async () => {
  await using api = await triggerApi({
    allowedEnvVars: ["HOOK_SECRET"],
    env: (n) => (n === "HOOK_SECRET" ? "s".repeat(20) : undefined),
  });
  await api.deploy("p");
  const refused = await api.call("POST", "/api/v1/processes/p/triggers", {
    json: { type: "event", event_type: "x", custom_config: { key: "${OTHER}" } },
  });
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error.code, "ENV_REFERENCES_NOT_ALLOWED");
  assert.ok(refused.body.error.details.some((d: { field: string }) => d.field === "custom_config.key"));
  const outside = await api.call("POST", "/api/v1/processes/p/triggers", {
    json: { type: "file_watch", watch_path: "/etc" },
  });
  assert.equal(outside.status, 403);
  assert.equal(outside.body.error.code, "PATH_NOT_ALLOWED");
  const inside = join(api.dataDir, "inbox");
  await Deno.mkdir(inside);
  const watched = await api.call("POST", "/api/v1/processes/p/triggers", {
    json: { type: "file_watch", watch_path: inside },
  });
  assert.equal(watched.status, 201, watched.text);
  const port = freePort();
  const signed = await api.call("POST", "/api/v1/processes/p/triggers", {
    json: { type: "webhook", webhook_port: port, hmac_secret: "${HOOK_SECRET}" },
  });
  assert.equal(signed.status, 201, signed.text);
  const unsigned = await fetch(`http://127.0.0.1:${port}/webhook`, { method: "POST", body: "{}" });
  await unsigned.body?.cancel();
  assert.equal(unsigned.status, 401, "the resolved secret guards the live webhook");
});

Deno.test("DELETE removes by stable id, warns on static_<n>, and answers 404 TRIGGER_NOT_FOUND", async () => {
  await using api = await triggerApi();
  await api.deploy("p", {
    triggers: [{ type: "event", event_type: "a" }, { type: "event", event_type: "b" }],
  });
  const [a, b] = (await api.call("GET", "/api/v1/processes/p/triggers")).body.triggers;
  const removed = await api.call("DELETE", `/api/v1/processes/p/triggers/${a.id}`);
  assert.equal(removed.status, 200);
  assert.deepEqual(removed.body, {
    name: "p",
    trigger_removed: a.id,
    live: true,
    effective_from: "immediate",
  });
  assert.equal(api.eventBus.subscriberCount("a"), 0);
  const legacy = await api.call("DELETE", "/api/v1/processes/p/triggers/static_0");
  assert.equal(legacy.body.trigger_removed, b.id);
  assert.match(legacy.body.warning, /deprecated/);
  const missing = await api.call("DELETE", "/api/v1/processes/p/triggers/static_0");
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.code, "TRIGGER_NOT_FOUND");
  await api.call("POST", "/api/v1/processes/p/stop");
  await api.call("POST", "/api/v1/processes/p/triggers", { json: { type: "event", event_type: "c" } });
  const c = (await api.call("GET", "/api/v1/processes/p/triggers")).body.triggers[0];
  const stopped = await api.call("DELETE", `/api/v1/processes/p/triggers/${c.id}`);
  assert.deepEqual([stopped.body.live, stopped.body.effective_from], [true, "next_start"]);
});

Deno.test("trigger changes are journaled as api_request entries naming the trigger", async () => {
  await using api = await triggerApi();
  await api.deploy("p", { journal: { backend: "memory" }, triggers: [{ type: "event", event_type: "a" }] });
  const [a] = (await api.call("GET", "/api/v1/processes/p/triggers")).body.triggers;
  await api.call("DELETE", `/api/v1/processes/p/triggers/${a.id}`);
  const journal = await api.call("GET", "/api/v1/processes/p/journal?type=api_request");
  const last = journal.body.entries.at(-1).data;
  assert.equal(last.route, "/api/v1/processes/{name}/triggers/{trigger_id}");
  assert.deepEqual(last.params, { name: "p", trigger_id: a.id });
});
