import assert from "node:assert/strict";
import { readSse, type SseEvent } from "./sse.ts";

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function collect(chunks: string[]): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of readSse(streamOf(chunks))) events.push(event);
  return events;
}

Deno.test("sse reader yields data events with their event names", async () => {
  assert.deepEqual(await collect(['event: delta\ndata: {"a":1}\n\ndata: [DONE]\n\n']), [
    { event: "delta", data: '{"a":1}' },
    { event: "message", data: "[DONE]" },
  ]);
});

Deno.test("sse reader handles CRLF and CR line ends, also split between chunks", async () => {
  assert.deepEqual(await collect(["data: one\r", "\n\r", "\ndata: two\r\r", "data:three\n\n"]), [
    { event: "message", data: "one" },
    { event: "message", data: "two" },
    { event: "message", data: "three" },
  ]);
});

Deno.test("sse reader joins multi-line data and skips comments and other fields", async () => {
  const text = ": keep-alive\nid: 7\nretry: 10\ndata: first\ndata:  second\n\n";
  assert.deepEqual(await collect([text]), [{ event: "message", data: "first\n second" }]);
});

Deno.test("sse reader joins a line split in the middle of a multi-byte character", async () => {
  const bytes = new TextEncoder().encode("data: héllo\n\n");
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes.slice(0, 8));
      controller.enqueue(bytes.slice(8));
      controller.close();
    },
  });
  const events: SseEvent[] = [];
  for await (const event of readSse(stream)) events.push(event);
  assert.deepEqual(events, [{ event: "message", data: "héllo" }]);
});

Deno.test("sse reader drops an event the stream ends before dispatching", async () => {
  assert.deepEqual(await collect(["data: done\n\ndata: cut"]), [{ event: "message", data: "done" }]);
});

Deno.test("sse reader cancels the stream when the loop leaves early", async () => {
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(new TextEncoder().encode("data: x\n\n"));
    },
    cancel() {
      cancelled = true;
    },
  });
  for await (const event of readSse(stream)) {
    assert.equal(event.data, "x");
    break;
  }
  assert.equal(cancelled, true);
});
