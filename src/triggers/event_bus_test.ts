import assert from "node:assert/strict";
import { Logger, memorySink } from "../log.ts";
import { type BusEvent, EventBus } from "./event_bus.ts";

Deno.test("event bus delivers an event synchronously to subscribers of its type only", () => {
  const bus = new EventBus();
  const orders: BusEvent[] = [];
  const users: BusEvent[] = [];
  bus.subscribe("order.created", (event) => orders.push(event));
  bus.subscribe("user.created", (event) => users.push(event));
  const id = bus.emit({ event_type: "order.created", source: "shop", data: { order: 42 } });
  assert.equal(orders.length, 1);
  assert.equal(users.length, 0);
  assert.equal(orders[0].event_id, id);
  assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(orders[0].event_type, "order.created");
  assert.equal(orders[0].source, "shop");
  assert.deepEqual(orders[0].data, { order: 42 });
  assert.ok(!Number.isNaN(Date.parse(orders[0].timestamp)));
});

Deno.test("event bus gives a null source and empty data when the producer omits them", () => {
  const bus = new EventBus();
  const seen: BusEvent[] = [];
  bus.subscribe("ping", (event) => seen.push(event));
  bus.emit({ event_type: "ping" });
  assert.equal(seen[0].source, null);
  assert.deepEqual(seen[0].data, {});
});

Deno.test("event bus returns a new event id on every emit", () => {
  const bus = new EventBus();
  const ids = new Set([
    bus.emit({ event_type: "a" }),
    bus.emit({ event_type: "a" }),
    bus.emit({ event_type: "a" }),
  ]);
  assert.equal(ids.size, 3);
});

Deno.test("event bus delivers every event type to '*' subscribers, once each", () => {
  const bus = new EventBus();
  const all: string[] = [];
  bus.subscribe("*", (event) => all.push(event.event_type));
  bus.emit({ event_type: "a" });
  bus.emit({ event_type: "b" });
  bus.emit({ event_type: "*" });
  assert.deepEqual(all, ["a", "b", "*"]);
});

Deno.test("event bus stops delivering after unsubscribe, and a second unsubscribe does nothing", () => {
  const bus = new EventBus();
  let calls = 0;
  const unsubscribe = bus.subscribe("a", () => calls++);
  const other = bus.subscribe("a", () => calls += 10);
  bus.emit({ event_type: "a" });
  unsubscribe();
  unsubscribe();
  bus.emit({ event_type: "a" });
  assert.equal(calls, 11 + 10);
  assert.equal(bus.subscriberCount("a"), 1);
  other();
  assert.equal(bus.subscriberCount("a"), 0);
});

Deno.test("event bus counts subscribers per type and in total", () => {
  const bus = new EventBus();
  bus.subscribe("a", () => {});
  bus.subscribe("a", () => {});
  bus.subscribe("*", () => {});
  assert.equal(bus.subscriberCount("a"), 2);
  assert.equal(bus.subscriberCount("*"), 1);
  assert.equal(bus.subscriberCount("b"), 0);
  assert.equal(bus.subscriberCount(), 3);
});

Deno.test("event bus isolates a throwing handler: others still run and the failure is logged", () => {
  const sink = memorySink();
  const bus = new EventBus({ logger: new Logger("t", { sink }) });
  const seen: string[] = [];
  bus.subscribe("a", () => seen.push("first"));
  bus.subscribe("a", () => {
    throw new TypeError("boom");
  });
  bus.subscribe("*", () => seen.push("any"));
  const id = bus.emit({ event_type: "a" });
  assert.deepEqual(seen, ["first", "any"]);
  assert.equal(sink.records.length, 1);
  assert.equal(sink.records[0].level, "error");
  assert.equal(sink.records[0].fields.event_id, id);
  assert.equal(sink.records[0].fields.error, "TypeError: boom");
});

Deno.test("event bus logs a handler whose promise rejects", async () => {
  const sink = memorySink();
  const bus = new EventBus({ logger: new Logger("t", { sink }) });
  bus.subscribe("a", () => Promise.reject(new Error("later")));
  bus.emit({ event_type: "a" });
  await Promise.resolve();
  await Promise.resolve();
  assert.equal(sink.records.length, 1);
  assert.equal(sink.records[0].fields.error, "Error: later");
});

Deno.test("event bus swallows handler failures without a logger", () => {
  const bus = new EventBus();
  bus.subscribe("a", () => {
    throw new Error("boom");
  });
  assert.doesNotThrow(() => bus.emit({ event_type: "a" }));
});

Deno.test("event bus refuses an empty event type", () => {
  const bus = new EventBus();
  assert.throws(() => bus.emit({ event_type: "" }), RangeError);
  assert.throws(() => bus.subscribe("", () => {}), RangeError);
});

Deno.test("event bus copies the data and freezes the delivered event", () => {
  const bus = new EventBus();
  const data = { n: 1 };
  let seen: BusEvent | undefined;
  bus.subscribe("a", (event) => seen = event);
  bus.emit({ event_type: "a", data });
  data.n = 2;
  assert.deepEqual(seen?.data, { n: 1 });
  assert.ok(Object.isFrozen(seen));
});

Deno.test("event bus lets a handler unsubscribe during delivery without skipping others", () => {
  const bus = new EventBus();
  const seen: string[] = [];
  const off = bus.subscribe("a", () => {
    seen.push("once");
    off();
  });
  bus.subscribe("a", () => seen.push("always"));
  bus.emit({ event_type: "a" });
  bus.emit({ event_type: "a" });
  assert.deepEqual(seen, ["once", "always", "always"]);
});
