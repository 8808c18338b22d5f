import assert from "node:assert/strict";
import type { TriggerEvent } from "./types.ts";
import { rawClient } from "../_util/_test_raw_client.ts";
import { WEBHOOK_STOP_GRACE_MS, WebhookTrigger, type WebhookTriggerOptions } from "./webhook_trigger.ts";

async function served(options: Partial<WebhookTriggerOptions> = {}): Promise<WebhookTrigger> {
  const hook = new WebhookTrigger({ path: "/hook", port: 0, host: "127.0.0.1", ...options });
  await hook.start();
  return hook;
}

async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const SLOW = "POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{";
const SLOW_CHUNKED = 'POST /hook HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"a"';
const HALF_HEAD = "POST /hook HTTP/1.1\r\nHost: x\r\nContent-Le";

Deno.test("stop answers clients still sending their body 503 and ends within the grace, cutting every connection", async () => {
  const hook = await served();
  using slow = await rawClient(hook.port, SLOW);
  using chunked = await rawClient(hook.port, SLOW_CHUNKED);
  using half = await rawClient(hook.port, HALF_HEAD);
  using idle = await rawClient(hook.port, "");
  await until(() => hook.inFlight === 2);
  const started = Date.now();
  await hook.stop();
  const took = Date.now() - started;
  assert.ok(took < WEBHOOK_STOP_GRACE_MS + 500, `stop took ${took} ms`);
  for (const client of [slow, chunked]) {
    const answer = await client.answer;
    assert.match(answer, /^HTTP\/1\.1 503 /);
    assert.match(answer, /retry-after: 30/i);
    assert.ok(answer.endsWith('{"status":"unavailable","message":"trigger stopped"}'), answer);
  }
  assert.equal(await half.answer, "", "a client in the middle of its headers is cut");
  assert.equal(await idle.answer, "");
  assert.deepEqual(hook.drain(), [], "nothing was accepted");
  assert.equal(hook.inFlight, 0);
});

Deno.test("stop is bounded even when an answer cannot be sent: connections are cut after the grace", async () => {
  // The event's write outlasts the grace: the answer is not sent when the grace ends, the cut comes, and
  // stop still waits for the write, so the recorded event is in the queue when stop ends.
  const gate = Promise.withResolvers<void>();
  const recorded: TriggerEvent[] = [];
  const hook = await served({
    accept: async (event) => {
      await gate.promise;
      recorded.push(event);
    },
  });
  using client = await rawClient(
    hook.port,
    'POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: 7\r\n\r\n{"a":1}',
  );
  await until(() => hook.inFlight === 1);
  const started = Date.now();
  const stopping = hook.stop();
  setTimeout(() => gate.resolve(), WEBHOOK_STOP_GRACE_MS + 300);
  await stopping;
  const took = Date.now() - started;
  assert.ok(took >= WEBHOOK_STOP_GRACE_MS && took < WEBHOOK_STOP_GRACE_MS + 1_500, `stop took ${took} ms`);
  assert.equal(await client.answer, "", "the connection was cut before the 202");
  assert.equal(recorded.length, 1);
  assert.deepEqual(hook.drain().map((e) => e.event_id), [recorded[0].event_id]);
});

Deno.test("an event being recorded when stop begins is answered 202 and queued before stop ends", async () => {
  const gate = Promise.withResolvers<void>();
  const hook = await served({ accept: () => gate.promise });
  const posting = fetch(`${hook.url}/hook`, { method: "POST", body: '{"n":1}' });
  await until(() => hook.inFlight === 1);
  const stopping = hook.stop();
  setTimeout(() => gate.resolve(), 50);
  await stopping;
  const answer = await posting;
  assert.equal(answer.status, 202);
  const { event_id } = await answer.json();
  assert.deepEqual(hook.drain().map((e) => e.event_id), [event_id]);
});
