import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { JSONRPCMessage, MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";
import { SseServerTransport } from "./sse_server_transport.ts";

const decoder = new TextDecoder();

async function nextChunk(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  const { value, done } = await reader.read();
  return done ? "<end>" : decoder.decode(value);
}

function post(
  transport: SseServerTransport,
  body: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return transport.handlePostMessage(
    new Request(`http://localhost${transport.endpoint}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    }),
  );
}

Deno.test("the SSE stream opens with the endpoint event and carries sent messages", async () => {
  const transport = new SseServerTransport({ sessionId: "abc", keepAliveMs: 0 });
  await transport.start();
  assert.equal(transport.response.headers.get("content-type"), "text/event-stream");
  const reader = transport.response.body!.getReader();
  assert.equal(await nextChunk(reader), "event: endpoint\ndata: /messages/?session_id=abc\n\n");
  await transport.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
  assert.equal(
    await nextChunk(reader),
    'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n\n',
  );
  let closed = 0;
  transport.onclose = () => void closed++;
  await transport.close();
  await transport.close();
  assert.equal(await nextChunk(reader), "<end>");
  assert.equal(closed, 1);
  await assert.rejects(transport.send({ jsonrpc: "2.0", method: "ping", id: 1 }), /Not connected/);
});

Deno.test("a posted JSON-RPC message is accepted with 202 and delivered with its headers", async () => {
  const transport = new SseServerTransport({ keepAliveMs: 0 });
  const received: [JSONRPCMessage, MessageExtraInfo | undefined][] = [];
  transport.onmessage = (message, extra) => void received.push([message, extra]);
  await transport.start();
  const response = await post(transport, '{"jsonrpc":"2.0","id":1,"method":"ping"}', { "x-trace": "t-1" });
  assert.equal(response.status, 202);
  await response.body?.cancel();
  assert.deepEqual(received[0][0], { jsonrpc: "2.0", id: 1, method: "ping" });
  assert.equal((received[0][1]?.requestInfo?.headers as Record<string, string>)["x-trace"], "t-1");
  await transport.close();
  const late = await post(transport, '{"jsonrpc":"2.0","id":2,"method":"ping"}');
  assert.equal(late.status, 404);
  await late.body?.cancel();
});

Deno.test("bad posts are refused: not JSON 415, broken 400, not JSON-RPC 400, over the cap 413", async () => {
  const transport = new SseServerTransport({ keepAliveMs: 0, maxBodyBytes: 64 });
  let delivered = 0;
  transport.onmessage = () => void delivered++;
  await transport.start();
  const cases: [string, Record<string, string>, number][] = [
    ["{}", { "content-type": "text/plain" }, 415],
    ["{oops", {}, 400],
    ['{"hello":"world"}', {}, 400],
    [JSON.stringify({ jsonrpc: "2.0", id: 1, method: "x".repeat(80) }), {}, 413],
  ];
  for (const [body, headers, status] of cases) {
    const response = await post(transport, body, headers);
    assert.equal(response.status, status, body);
    await response.body?.cancel();
  }
  assert.equal(delivered, 0);
  await transport.close();
});

Deno.test("keep-alive comments flow until the client goes away, which closes the transport", async () => {
  const clock = FakeTimers.install({ toFake: ["setInterval", "clearInterval"] });
  try {
    const transport = new SseServerTransport({ keepAliveMs: 1000 });
    let closed = false;
    transport.onclose = () => closed = true;
    await transport.start();
    const reader = transport.response.body!.getReader();
    await nextChunk(reader);
    clock.tick(1000);
    assert.equal(await nextChunk(reader), ": keepalive\n\n");
    await reader.cancel();
    assert.equal(closed, true);
    assert.equal(clock.countTimers(), 0);
  } finally {
    clock.uninstall();
  }
});
