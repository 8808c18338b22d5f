import assert from "node:assert/strict";
import { parseSection, type TriggerConfig } from "../runtime/mod.ts";
import { buildTrigger } from "./build_trigger.ts";
import { EventBus } from "./event_bus.ts";
import { MessageBroker } from "./message_broker.ts";
import type { TriggerBase } from "./trigger_base.ts";
import { WebhookTrigger } from "./webhook_trigger.ts";

function resolved(trigger: Record<string, unknown>): TriggerConfig {
  const parsed = parseSection("triggers", [trigger]);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.config[0];
}

function build(trigger: Record<string, unknown>) {
  const sources = { eventBus: new EventBus(), broker: new MessageBroker() };
  return { built: buildTrigger(resolved(trigger), { triggerId: "t", sources }), sources };
}

Deno.test("a webhook with queue_capacity answers 503 queue full once that many events wait", async () => {
  const { built } = build({ type: "webhook", webhook_port: 9090, queue_capacity: 2 });
  assert.ok(built instanceof WebhookTrigger);
  const post = () =>
    built.handler(new Request("http://127.0.0.1:9090/webhook", { method: "POST", body: "{}" }));
  assert.equal((await post()).status, 202);
  assert.equal((await post()).status, 202);
  const full = await post();
  assert.equal(full.status, 503);
  assert.deepEqual(await full.json(), { status: "error", message: "queue full" });
  assert.equal(built.queueCapacity, 2);
});

Deno.test("each trigger type takes queue_capacity, and keeps its own default without it", () => {
  const cases: Array<[Record<string, unknown>, number]> = [
    [{ type: "cron", cron_expression: "@hourly" }, 10],
    [{ type: "webhook" }, 1000],
    [{ type: "file_watch", watch_path: "/tmp" }, 100],
    [{ type: "event", event_type: "x" }, 100],
    [{ type: "message", topic: "a.b" }, 100],
  ];
  for (const [config, fallback] of cases) {
    assert.equal((build(config).built as TriggerBase).queueCapacity, fallback, `${config.type} default`);
    const sized = build({ ...config, queue_capacity: 7 }).built as TriggerBase;
    assert.equal(sized.queueCapacity, 7, `${config.type} queue_capacity`);
  }
});

Deno.test("an event trigger with queue_capacity drops what does not fit", async () => {
  const { built, sources } = build({ type: "event", event_type: "tick", queue_capacity: 1 });
  const trigger = built as TriggerBase;
  await trigger.start();
  try {
    sources.eventBus.emit({ event_type: "tick", source: "test", data: {} });
    sources.eventBus.emit({ event_type: "tick", source: "test", data: {} });
    assert.equal(trigger.queueSize, 1);
    assert.equal(trigger.dropped, 1);
  } finally {
    await trigger.stop();
  }
});
