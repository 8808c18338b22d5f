import assert from "node:assert/strict";
import { testContext } from "./_test_context.ts";
import { audioContent, imageContent, ToolResponse, toResourceResult, toToolResult } from "./results.ts";

Deno.test("tool results: strings, numbers, undefined and JSON become one text block", () => {
  assert.deepEqual(toToolResult("hi").content, [{ type: "text", text: "hi" }]);
  assert.deepEqual(toToolResult(5).content, [{ type: "text", text: "5" }]);
  assert.deepEqual(toToolResult(undefined).content, [{ type: "text", text: "OK" }]);
  assert.deepEqual(toToolResult({ a: [1] }).content, [{ type: "text", text: '{"a":[1]}' }]);
  assert.deepEqual(toToolResult([1, 2]).content, [{ type: "text", text: "[1,2]" }]);
});

Deno.test("tool results: content blocks and full results pass through; mixed lists keep blocks", () => {
  const image = imageContent(new Uint8Array([1, 2, 3]), "image/png");
  assert.deepEqual(toToolResult(image).content, [{ type: "image", data: "AQID", mimeType: "image/png" }]);
  const full = { content: [{ type: "text" as const, text: "x" }], isError: true };
  assert.equal(toToolResult(full), full);
  const mixed = toToolResult([audioContent(new Uint8Array([0]), "audio/wav"), { n: 1 }, "s"]);
  assert.deepEqual(mixed.content, [
    { type: "audio", data: "AA==", mimeType: "audio/wav" },
    { type: "text", text: '{"n":1}' },
    { type: "text", text: "s" },
  ]);
});

Deno.test("ToolResponse metadata goes to request state, never to the client", () => {
  const { ctx } = testContext();
  const result = toToolResult(new ToolResponse({ ok: true }, { rows: 3 }), ctx);
  assert.deepEqual(result.content, [{ type: "text", text: '{"ok":true}' }]);
  assert.deepEqual(ctx.state.response_metadata, { rows: 3 });
});

Deno.test("resource results: text, bytes as base64 blob, and full results", () => {
  assert.deepEqual(toResourceResult("t", "a://x", "text/plain").contents, [{
    uri: "a://x",
    mimeType: "text/plain",
    text: "t",
  }]);
  assert.deepEqual(toResourceResult(new Uint8Array([255]), "a://b", "application/octet-stream").contents, [
    { uri: "a://b", mimeType: "application/octet-stream", blob: "/w==" },
  ]);
  const full = { contents: [{ uri: "a://c", text: "c" }] };
  assert.equal(toResourceResult(full, "a://c", "text/plain"), full);
});
