import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { CLIENT, testApi, TOKEN, within } from "../../tests/_api_harness.ts";
import { RUNTIME_EVENT_TYPES } from "../runtime/mod.ts";
import { readServerEvents } from "./client_stream.ts";
import { EVENT_STREAM_KEEPALIVE_SECONDS } from "./routes/event_routes.ts";

type Api = Awaited<ReturnType<typeof testApi>>;

/** Opens the stream through the app (no socket); the caller aborts `controller` to leave. */
function open(api: Api, query = "", headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const request = new Request(`http://127.0.0.1:9100/api/v1/events${query}`, {
    headers: { authorization: `Bearer ${TOKEN}`, ...headers },
    signal: controller.signal,
  });
  return { controller, answer: Promise.resolve(api.app.fetch(request, { remoteAddr: CLIENT })) };
}

/** The first `count` events of a stream answer, then leaves it. */
async function take(response: Response, count: number) {
  const events = [];
  for await (const event of readServerEvents<Record<string, unknown>>(response.body!)) {
    events.push(event);
    if (events.length === count) break;
  }
  return events;
}

function emitRemoved(api: Api, names: string[]): void {
  for (const name of names) api.runtime.eventLog.emit("process.removed", { process: name, process_id: "x" });
}

Deno.test("GET /events replays the kept events after Last-Event-ID, filtered by process and type", async () => {
  await using api = await testApi();
  emitRemoved(api, ["a", "b", "a", "c"]);
  api.runtime.eventLog.emit("process.deployed", { process: "a", process_id: "x", source: "api" });
  const { controller, answer } = open(api, "?process=a&types=process.removed", { "last-event-id": "1" });
  const response = await answer;
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "text/event-stream");
  emitRemoved(api, ["b", "a"]);
  const events = await within(take(response, 2), 5000, "two events");
  controller.abort();
  assert.deepEqual(events.map((e) => [e.id, e.event, e.data.process]), [
    ["3", "process.removed", "a"],
    ["7", "process.removed", "a"],
  ]);
  assert.equal(typeof events[0].data.at, "string");
});

Deno.test("GET /events takes ?since= and repeated or comma-separated filters", async () => {
  await using api = await testApi();
  emitRemoved(api, ["a", "b", "c", "d"]);
  const { controller, answer } = open(api, "?since=1&process=b,c&process=d");
  const events = await within(take(await answer, 3), 5000, "three events");
  controller.abort();
  assert.deepEqual(events.map((e) => e.id), ["2", "3", "4"]);
});

Deno.test("GET /events starts with a reset when the id is older than the ring or ahead of the runtime", async () => {
  await using api = await testApi();
  emitRemoved(api, Array.from({ length: 1002 }, (_, i) => `p${i}`));
  const gap = open(api, "?since=1");
  const [reset, next] = await within(take(await gap.answer, 2), 5000, "the reset");
  gap.controller.abort();
  assert.equal(reset.event, "reset");
  assert.equal(reset.id, undefined);
  assert.deepEqual(reset.data, { reason: "gap" });
  assert.equal(next.id, "3", "then the oldest kept event");
  const ahead = open(api, "", { "last-event-id": "5000" });
  const [unknown] = await within(take(await ahead.answer, 1), 5000, "the reset");
  ahead.controller.abort();
  assert.deepEqual(unknown.data, { reason: "unknown_id" });
});

Deno.test("GET /events refuses unknown types with the list, bad ids and unknown parameters (422)", async () => {
  await using api = await testApi();
  const types = await api.call("GET", "/api/v1/events?types=run.started,run.exploded");
  assert.equal(types.status, 422);
  assert.equal(types.body.error.code, "INVALID_FIELD");
  assert.match(types.body.error.message, /"run\.exploded"/);
  for (const type of RUNTIME_EVENT_TYPES) assert.ok(types.body.error.message.includes(type), type);
  assert.equal(types.body.error.details[0].field, "types");
  const since = await api.call("GET", "/api/v1/events?since=-3");
  assert.equal(since.status, 422);
  assert.equal(since.body.error.details[0].field, "since");
  const header = await api.call("GET", "/api/v1/events", { headers: { "last-event-id": "abc" } });
  assert.equal(header.status, 422);
  assert.equal(header.body.error.details[0].field, "Last-Event-ID");
  const unknown = await api.call("GET", "/api/v1/events?proces=a");
  assert.equal(unknown.status, 422);
  assert.equal(unknown.body.error.code, "UNKNOWN_FIELD");
  const empty = await api.call("GET", "/api/v1/events?process=");
  assert.equal(empty.status, 422);
  assert.equal(api.runtime.eventLog.subscriberCount, 0);
});

Deno.test("GET /events needs the token", async () => {
  await using api = await testApi();
  const answer = await api.call("GET", "/api/v1/events", { token: null });
  assert.equal(answer.status, 401);
  assert.equal(api.runtime.eventLog.subscriberCount, 0);
});

Deno.test("GET /events sends a keep-alive comment every 15 s", async () => {
  await using api = await testApi();
  const clock = FakeTimers.withGlobal(globalThis).install({ toFake: ["setInterval", "clearInterval"] });
  try {
    const { controller, answer } = open(api);
    const reader = (await answer).body!.pipeThrough(new TextDecoderStream()).getReader();
    assert.equal((await reader.read()).value, ": connected\n\n");
    clock.tick(EVENT_STREAM_KEEPALIVE_SECONDS * 1000 - 1);
    emitRemoved(api, ["a"]);
    assert.match((await reader.read()).value ?? "", /^id: 1\nevent: process.removed\n/);
    clock.tick(1);
    assert.equal((await reader.read()).value, ": keep-alive\n\n");
    clock.tick(EVENT_STREAM_KEEPALIVE_SECONDS * 1000);
    assert.equal((await reader.read()).value, ": keep-alive\n\n");
    controller.abort();
    await reader.cancel();
    assert.equal(clock.countTimers(), 0, "the keep-alive timer is cleared");
  } finally {
    clock.uninstall();
  }
});

Deno.test("GET /events lets go of its reader when the client leaves or the runtime closes", async () => {
  await using api = await testApi();
  const first = open(api);
  const response = await first.answer;
  assert.equal(api.runtime.eventLog.subscriberCount, 1);
  first.controller.abort();
  await response.body!.cancel().catch(() => {});
  assert.equal(api.runtime.eventLog.subscriberCount, 0);

  const second = open(api);
  const reader = (await second.answer).body!.getReader();
  await reader.read(); // ": connected"
  api.runtime.eventLog.close();
  assert.equal((await within(reader.read(), 5000, "the end")).done, true);
  assert.equal(api.runtime.eventLog.subscriberCount, 0);
});

Deno.test("GET /events lets go of a reader that stops reading; HEAD opens no stream", async () => {
  await using api = await testApi();
  const { controller, answer } = open(api);
  const response = await answer;
  const details = { text: "x".repeat(100_000) };
  for (let i = 0; i < 12 && api.runtime.eventLog.subscriberCount > 0; i++) {
    api.runtime.eventLog.emit("anomaly", {
      process: "a",
      type: "loop",
      description: "d",
      run_id: "r",
      details,
    });
  }
  assert.equal(api.runtime.eventLog.subscriberCount, 0, "more than 1 MiB unread");
  controller.abort();
  await response.body!.cancel();
  const head = await api.call("HEAD", "/api/v1/events");
  assert.equal(head.status, 200);
  assert.equal(head.headers.get("content-type"), "text/event-stream");
  assert.equal(api.runtime.eventLog.subscriberCount, 0);
});

Deno.test("the OpenAPI document describes GET /events", async () => {
  await using api = await testApi();
  const document = (await api.call("GET", "/api/v1/openapi.json")).body;
  const operation = document.paths["/api/v1/events"].get;
  assert.equal(operation.operationId, "streamEvents");
  assert.deepEqual(operation.parameters.map((p: { name: string }) => p.name).sort(), [
    "process",
    "since",
    "types",
  ]);
  assert.ok(operation.responses["200"].content["text/event-stream"]);
});
