import assert from "node:assert/strict";
import { windows } from "./windows.ts";

Deno.test("windows are 500 characters sharing 100, the last one ending at the end of the text", () => {
  const text = Array.from({ length: 1234 }, (_, i) => String.fromCharCode(65 + (i % 26))).join("");
  const parts = windows(text);
  assert.deepEqual(parts.map((part) => part.start), [0, 400, 800]);
  assert.deepEqual(parts.map((part) => part.text.length), [500, 500, 434]);
  for (const part of parts) assert.equal(part.text, text.slice(part.start, part.start + 500));
});

Deno.test("a short text is one window and an empty text none", () => {
  assert.deepEqual(windows("hello"), [{ start: 0, text: "hello" }]);
  assert.deepEqual(windows("x".repeat(500)).length, 1);
  assert.deepEqual(windows(""), []);
});

Deno.test("every phrase up to the overlap long lies wholly inside some window", () => {
  const text = "y".repeat(3000);
  const options = { windowSize: 50, overlap: 10 };
  const parts = windows(text, options);
  for (let at = 0; at + 10 <= text.length; at++) {
    assert.ok(
      parts.some((part) => part.start <= at && at + 10 <= part.start + part.text.length),
      `phrase at ${at}`,
    );
  }
});

Deno.test("windows refuse an overlap not smaller than the window, and a size below 1", () => {
  assert.throws(() => windows("abc", { windowSize: 10, overlap: 10 }), RangeError);
  assert.throws(() => windows("abc", { windowSize: 0 }), RangeError);
  assert.throws(() => windows("abc", { windowSize: 10, overlap: -1 }), RangeError);
  // Given only a size, the overlap is a fifth of it (at most 100).
  assert.deepEqual(windows("abcdefghijkl", { windowSize: 10 }).map((part) => part.text), [
    "abcdefghij",
    "ijkl",
  ]);
});
