import assert from "node:assert/strict";
import { Logger, memorySink } from "../log.ts";
import { EventBus } from "./event_bus.ts";
import { EventTrigger } from "./event_trigger.ts";
import { STOP_KEY, TriggerCancelledError } from "./types.ts";

Deno.test("event trigger queues a payload of event_type, event_id, source and data", async () => {
  const bus = new EventBus();
  const trigger = new EventTrigger({ eventBus: bus, eventType: "order.created" });
  await trigger.start();
  const id = bus.emit({ event_type: "order.created", source: "shop", data: { order: 7 } });
  bus.emit({ event_type: "order.deleted", source: "shop" });
  const event = await trigger.waitForNext();
  assert.equal(event.trigger_id, "event-order.created");
  assert.equal(event.trigger_type, "event");
  assert.deepEqual(event.payload, {
    event_type: "order.created",
    event_id: id,
    source: "shop",
    data: { order: 7 },
  });
  assert.deepEqual(event.metadata, {});
  assert.equal(trigger.queueSize, 0);
  await trigger.stop();
});

Deno.test("event trigger uses the given trigger id", () => {
  const trigger = new EventTrigger({ eventBus: new EventBus(), eventType: "a", triggerId: "event-abc" });
  assert.equal(trigger.triggerId, "event-abc");
  assert.equal(trigger.queueCapacity, 100);
});

Deno.test("event trigger silently ignores events from other sources than the filter", async () => {
  const bus = new EventBus();
  const sink = memorySink();
  const trigger = new EventTrigger({
    eventBus: bus,
    eventType: "a",
    sourceFilter: "shop",
    logger: new Logger("t", { sink }),
  });
  await trigger.start();
  bus.emit({ event_type: "a", source: "other" });
  bus.emit({ event_type: "a" });
  bus.emit({ event_type: "a", source: "shop", data: { ok: true } });
  assert.equal(trigger.queueSize, 1);
  assert.equal(sink.records.length, 0);
  const event = await trigger.waitForNext();
  assert.equal((event.payload as { source: string }).source, "shop");
  await trigger.stop();
});

Deno.test("event trigger does not subscribe before start", () => {
  const bus = new EventBus();
  new EventTrigger({ eventBus: bus, eventType: "a" });
  assert.equal(bus.subscriberCount(), 0);
  bus.emit({ event_type: "a" });
});

Deno.test("event trigger drops events when its queue is full, with one warning each", async () => {
  const bus = new EventBus();
  const sink = memorySink();
  const trigger = new EventTrigger({
    eventBus: bus,
    eventType: "a",
    capacity: 2,
    logger: new Logger("t", { sink }),
  });
  await trigger.start();
  for (let i = 0; i < 5; i++) bus.emit({ event_type: "a", data: { i } });
  assert.equal(trigger.queueSize, 2);
  assert.equal(trigger.dropped, 3);
  const warnings = sink.records.filter((r) => r.level === "warning");
  assert.equal(warnings.length, 3);
  assert.equal(warnings[0].fields.trigger_id, "event-a");
  const first = await trigger.waitForNext();
  assert.deepEqual((first.payload as { data: unknown }).data, { i: 0 });
  await trigger.stop();
});

Deno.test("event trigger stop unsubscribes and makes waitForNext reject with TriggerCancelledError", async () => {
  const bus = new EventBus();
  const trigger = new EventTrigger({ eventBus: bus, eventType: "a" });
  await trigger.start();
  assert.equal(bus.subscriberCount("a"), 1);
  const waiting = trigger.waitForNext();
  await trigger.stop();
  assert.equal(bus.subscriberCount("a"), 0);
  await assert.rejects(waiting, TriggerCancelledError);
  bus.emit({ event_type: "a" });
  await assert.rejects(trigger.waitForNext(), (error: unknown) => {
    assert.ok(error instanceof TriggerCancelledError);
    assert.equal(error.triggerId, "event-a");
    return true;
  });
  assert.equal(trigger.running, false);
});

Deno.test("event trigger delivers events queued before stop, then the stop sentinel", async () => {
  const bus = new EventBus();
  const trigger = new EventTrigger({ eventBus: bus, eventType: "a" });
  await trigger.start();
  bus.emit({ event_type: "a" });
  await trigger.stop();
  const event = await trigger.waitForNext();
  assert.notEqual(event.metadata[STOP_KEY], true);
  await assert.rejects(trigger.waitForNext(), TriggerCancelledError);
});

Deno.test("event trigger on '*' receives every event type", async () => {
  const bus = new EventBus();
  const trigger = new EventTrigger({ eventBus: bus, eventType: "*" });
  await trigger.start();
  bus.emit({ event_type: "x" });
  bus.emit({ event_type: "y" });
  const types = [await trigger.waitForNext(), await trigger.waitForNext()].map((e) =>
    (e.payload as { event_type: string }).event_type
  );
  assert.deepEqual(types, ["x", "y"]);
  await trigger.stop();
});

Deno.test("event trigger refuses an empty event type", () => {
  assert.throws(() => new EventTrigger({ eventBus: new EventBus(), eventType: "" }), RangeError);
});
