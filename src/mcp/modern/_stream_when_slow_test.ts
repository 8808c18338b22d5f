import assert from "node:assert/strict";
import { acceptsEventStream, streamWhenSlow } from "./_stream_when_slow.ts";

const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

Deno.test("a quick answer is returned as it is", async () => {
  const answer = Response.json({ jsonrpc: "2.0", id: 1, result: {} }, { status: 202 });
  const response = await streamWhenSlow(Promise.resolve(answer), 50);
  assert.equal(response, answer);
});

Deno.test("a quick rejection rejects", async () => {
  await assert.rejects(streamWhenSlow(Promise.reject(new Error("broke")), 50), /broke/);
});

Deno.test("a slow JSON answer comes as one SSE message event on a 200 stream opened at once", async () => {
  const text = JSON.stringify({ jsonrpc: "2.0", id: 7, error: { code: -32602, message: "bad" } });
  const started = Date.now();
  const response = await streamWhenSlow(later(150, new Response(text, { status: 400 })), 20);
  assert.ok(Date.now() - started < 140, "the stream opened before the answer came");
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "text/event-stream");
  assert.equal(await response.text(), `event: message\ndata: ${text}\n\n`);
});

Deno.test("a slow SSE answer is relayed as it is", async () => {
  const frames = 'event: message\ndata: {"a":1}\n\nevent: message\ndata: {"b":2}\n\n';
  const sse = new Response(frames, { headers: { "content-type": "text/event-stream" } });
  const response = await streamWhenSlow(later(60, sse), 10);
  assert.equal(await response.text(), frames);
});

Deno.test("a late rejection ends the stream without a message", async () => {
  const response = await streamWhenSlow(later(60, 0).then(() => Promise.reject(new Error("gone"))), 10);
  assert.equal(await response.text(), "");
});

Deno.test("cancelling the stream cancels the answer's SSE body", async () => {
  const cancelled = Promise.withResolvers<unknown>();
  const inner = new ReadableStream<Uint8Array>({
    start: (c) => c.enqueue(new TextEncoder().encode(": open\n\n")),
    cancel: (reason) => cancelled.resolve(reason ?? "cancelled"),
  });
  const sse = new Response(inner, { headers: { "content-type": "text/event-stream" } });
  const response = await streamWhenSlow(later(30, sse), 10);
  const reader = response.body!.getReader();
  assert.equal(new TextDecoder().decode((await reader.read()).value), ": open\n\n");
  await reader.cancel();
  assert.notEqual(await Promise.race([cancelled.promise, later(1_000, undefined)]), undefined);
});

Deno.test("acceptsEventStream reads the Accept header", () => {
  const accept = (value?: string) =>
    acceptsEventStream(new Request("http://x/", { headers: value ? { accept: value } : {} }));
  assert.equal(accept("application/json, text/event-stream"), true);
  assert.equal(accept("application/json"), false);
  assert.equal(accept(), false);
});
