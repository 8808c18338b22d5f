import assert from "node:assert/strict";
import { Logger, memorySink } from "../log.ts";
import { MessageBroker } from "./message_broker.ts";
import { MessageTrigger } from "./message_trigger.ts";
import { TriggerCancelledError } from "./types.ts";

Deno.test("message trigger queues a payload with the concrete topic, id, sender and content", async () => {
  const broker = new MessageBroker();
  const trigger = new MessageTrigger({ broker, topic: "reports.*" });
  await trigger.start();
  const id = broker.publish("reports.daily", { rows: 3 }, { sender: "etl" });
  broker.publish("alerts.fire", "ignored");
  const event = await trigger.waitForNext();
  assert.equal(event.trigger_id, "message-reports.*");
  assert.equal(event.trigger_type, "message");
  assert.deepEqual(event.payload, {
    topic: "reports.daily",
    message_id: id,
    sender: "etl",
    content: { rows: 3 },
  });
  assert.equal(trigger.queueSize, 0);
  await trigger.stop();
});

Deno.test("message trigger payload has a null sender when the publisher gives none", async () => {
  const broker = new MessageBroker();
  const trigger = new MessageTrigger({ broker, topic: "a.#", triggerId: "message-x" });
  await trigger.start();
  broker.publish("a.b.c", 5);
  const event = await trigger.waitForNext();
  assert.equal(event.trigger_id, "message-x");
  assert.deepEqual(event.payload, {
    topic: "a.b.c",
    message_id: (event.payload as { message_id: string }).message_id,
    sender: null,
    content: 5,
  });
  await trigger.stop();
});

Deno.test("message trigger drops messages when its queue is full, with one warning each", async () => {
  const broker = new MessageBroker();
  const sink = memorySink();
  const trigger = new MessageTrigger({ broker, topic: "a", capacity: 1, logger: new Logger("t", { sink }) });
  assert.equal(new MessageTrigger({ broker, topic: "a" }).queueCapacity, 100);
  await trigger.start();
  broker.publish("a", 1);
  broker.publish("a", 2);
  broker.publish("a", 3);
  assert.equal(trigger.queueSize, 1);
  assert.equal(trigger.dropped, 2);
  assert.equal(sink.records.filter((r) => r.level === "warning").length, 2);
  await trigger.stop();
});

Deno.test("message trigger stop unsubscribes and makes waitForNext reject with TriggerCancelledError", async () => {
  const broker = new MessageBroker();
  const trigger = new MessageTrigger({ broker, topic: "a" });
  await trigger.start();
  assert.equal(broker.subscriberCount("a"), 1);
  const waiting = trigger.waitForNext();
  await trigger.stop();
  assert.equal(broker.subscriberCount(), 0);
  await assert.rejects(waiting, TriggerCancelledError);
});

Deno.test("message trigger refuses an invalid topic pattern", () => {
  assert.throws(() => new MessageTrigger({ broker: new MessageBroker(), topic: "a..b" }), RangeError);
  assert.throws(() => new MessageTrigger({ broker: new MessageBroker(), topic: "" }), RangeError);
});
