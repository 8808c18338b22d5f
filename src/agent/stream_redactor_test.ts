import assert from "node:assert/strict";
import { StreamRedactor } from "./stream_redactor.ts";

const SECRET = "sk-live-0123456789";
const redact = (text: string) => text.replaceAll(SECRET, "[REDACTED]");

Deno.test("a secret split over deltas never reaches the stream, and other text flows on", () => {
  const out: string[] = [];
  const stream = new StreamRedactor([SECRET], redact, (text) => out.push(text));
  for (const delta of ["The key is sk-", "live-01234", "56789 and more", " text"]) stream.push(delta);
  stream.flush();
  const text = out.join("");
  assert.equal(text, "The key is [REDACTED] and more text");
  for (const piece of out) assert.ok(!piece.includes("sk-live"), piece);
  assert.ok(out.length >= 3, "text was streamed, not held to the end");
});

Deno.test("held text that turns out not to be a secret is released", () => {
  const out: string[] = [];
  const stream = new StreamRedactor([SECRET], redact, (text) => out.push(text));
  stream.push("ends with sk-");
  assert.equal(out.join(""), "ends with ");
  stream.push("ip");
  assert.equal(out.join(""), "ends with sk-ip");
});

Deno.test("without secrets deltas pass straight through", () => {
  const out: string[] = [];
  const stream = new StreamRedactor([], redact, (text) => out.push(text));
  stream.push("a");
  stream.push("b");
  assert.deepEqual(out, ["a", "b"]);
});
