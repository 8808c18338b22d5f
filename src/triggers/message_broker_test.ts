import assert from "node:assert/strict";
import { Logger, memorySink } from "../log.ts";
import {
  type BrokerMessage,
  isValidTopic,
  isValidTopicPattern,
  MessageBroker,
  topicMatches,
} from "./message_broker.ts";

const MATCHES: ReadonlyArray<[pattern: string, topic: string, expected: boolean]> = [
  // literal
  ["reports", "reports", true],
  ["reports.daily", "reports.daily", true],
  ["reports.daily", "reports.weekly", false],
  ["reports.daily", "reports", false],
  ["reports", "reports.daily", false],
  ["Reports", "reports", false],
  ["da*ly", "daily", false],
  ["da*ly", "da*ly", true],
  ["re#", "reports", false],
  // * is exactly one segment
  ["reports.*", "reports.daily", true],
  ["reports.*", "reports", false],
  ["reports.*", "reports.daily.pdf", false],
  ["*", "reports", true],
  ["*", "reports.daily", false],
  ["*.daily", "reports.daily", true],
  ["*.daily", "reports.weekly", false],
  ["*.*", "a.b", true],
  ["*.*", "a", false],
  ["*.*", "a.b.c", false],
  ["a.*.c", "a.b.c", true],
  ["a.*.c", "a.c", false],
  ["a.*.c", "a.b.x.c", false],
  // # is zero or more segments, anywhere
  ["reports.#", "reports", true],
  ["reports.#", "reports.daily", true],
  ["reports.#", "reports.daily.pdf", true],
  ["reports.#", "report", false],
  ["reports.#", "other.reports", false],
  ["#", "a", true],
  ["#", "a.b.c", true],
  ["#.pdf", "pdf", true],
  ["#.pdf", "reports.daily.pdf", true],
  ["#.pdf", "reports.daily.csv", false],
  ["a.#.z", "a.z", true],
  ["a.#.z", "a.b.z", true],
  ["a.#.z", "a.b.c.d.z", true],
  ["a.#.z", "a.b.c", false],
  ["a.#.z", "b.a.z", false],
  ["a.#.#.z", "a.z", true],
  ["a.#.#.z", "a.b.c.z", true],
  ["#.*", "a", true],
  ["#.*", "a.b.c", true],
  ["*.#", "a", true],
  ["*.#.*", "a", false],
  ["*.#.*", "a.b", true],
  ["a.#.b.#.c", "a.x.b.y.c", true],
  ["a.#.b.#.c", "a.b.c", true],
  ["a.#.b.#.c", "a.c.b", false],
  // invalid patterns or topics never match
  ["", "a", false],
  ["a..b", "a..b", false],
  [".a", "a", false],
  ["a.", "a", false],
  ["#", "", false],
  ["#", "a..b", false],
  ["*", "*", false],
  ["#", "a.#", false],
];

for (const [pattern, topic, expected] of MATCHES) {
  Deno.test(`topic pattern ${JSON.stringify(pattern)} ${expected ? "matches" : "does not match"} ${JSON.stringify(topic)}`, () => {
    assert.equal(topicMatches(pattern, topic), expected);
  });
}

Deno.test("topic validation refuses empty segments, and wildcard segments in published topics", () => {
  for (const bad of ["", ".", "a.", ".a", "a..b"]) {
    assert.equal(isValidTopicPattern(bad), false, bad);
    assert.equal(isValidTopic(bad), false, bad);
  }
  for (const pattern of ["*", "#", "a.*", "a.#.b"]) {
    assert.equal(isValidTopicPattern(pattern), true, pattern);
    assert.equal(isValidTopic(pattern), false, pattern);
  }
  assert.equal(isValidTopic("reports.daily"), true);
});

Deno.test("broker delivers a message to every matching subscription with topic, id, sender and content", () => {
  const broker = new MessageBroker();
  const got: Array<[string, BrokerMessage]> = [];
  broker.subscribe("reports.*", (m) => got.push(["star", m]));
  broker.subscribe("reports.#", (m) => got.push(["hash", m]));
  broker.subscribe("alerts.#", (m) => got.push(["alerts", m]));
  const id = broker.publish("reports.daily", { rows: 3 }, { sender: "etl" });
  assert.deepEqual(got.map(([name]) => name), ["star", "hash"]);
  const message = got[0][1];
  assert.equal(message.message_id, id);
  assert.equal(message.topic, "reports.daily");
  assert.equal(message.sender, "etl");
  assert.deepEqual(message.content, { rows: 3 });
  assert.ok(Object.isFrozen(message));
});

Deno.test("broker gives a null sender when none is given, and new ids per message", () => {
  const broker = new MessageBroker();
  const got: BrokerMessage[] = [];
  broker.subscribe("a", (m) => got.push(m));
  const first = broker.publish("a", "x");
  const second = broker.publish("a", "y");
  assert.equal(got[0].sender, null);
  assert.notEqual(first, second);
  assert.match(first, /^[0-9a-f-]{36}$/);
});

Deno.test("broker stops delivering after unsubscribe", () => {
  const broker = new MessageBroker();
  let calls = 0;
  const off = broker.subscribe("a.*", () => calls++);
  broker.publish("a.b", null);
  off();
  off();
  broker.publish("a.b", null);
  assert.equal(calls, 1);
  assert.equal(broker.subscriberCount(), 0);
});

Deno.test("broker counts subscriptions by pattern and in total", () => {
  const broker = new MessageBroker();
  broker.subscribe("a.*", () => {});
  broker.subscribe("a.*", () => {});
  broker.subscribe("#", () => {});
  assert.equal(broker.subscriberCount("a.*"), 2);
  assert.equal(broker.subscriberCount("a.b"), 0);
  assert.equal(broker.subscriberCount(), 3);
});

Deno.test("broker isolates a throwing handler: others still run and the failure is logged", () => {
  const sink = memorySink();
  const broker = new MessageBroker({ logger: new Logger("t", { sink }) });
  const seen: string[] = [];
  broker.subscribe("#", () => {
    throw new Error("boom");
  });
  broker.subscribe("a", () => seen.push("a"));
  const id = broker.publish("a", 1);
  assert.deepEqual(seen, ["a"]);
  assert.equal(sink.records.length, 1);
  assert.equal(sink.records[0].level, "error");
  assert.equal(sink.records[0].fields.message_id, id);
  assert.equal(sink.records[0].fields.error, "Error: boom");
});

Deno.test("broker refuses invalid patterns in subscribe and invalid topics in publish", () => {
  const broker = new MessageBroker();
  for (const bad of ["", "a..b", ".a", "a."]) {
    assert.throws(() => broker.subscribe(bad, () => {}), RangeError, bad);
    assert.throws(() => broker.publish(bad, null), RangeError, bad);
  }
  assert.throws(() => broker.publish("reports.*", null), RangeError);
  assert.throws(() => broker.publish("#", null), RangeError);
  assert.equal(broker.subscriberCount(), 0);
});
