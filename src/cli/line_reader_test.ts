import assert from "node:assert/strict";
import { createLineReader } from "./line_reader.ts";

function chunks(parts: string[]): () => ReadableStream<Uint8Array> {
  return () =>
    new ReadableStream({
      start(controller) {
        for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
        controller.close();
      },
    });
}

Deno.test("line reader answers line by line across chunks, strips CR, and gives null at the end", async () => {
  const asked: string[] = [];
  const readLine = createLineReader({
    input: chunks(["fir", "st\r\nsecond\n\nla", "st"]),
    write: (text) => asked.push(text),
  });
  assert.equal(await readLine("1? "), "first");
  assert.equal(await readLine("2? "), "second");
  assert.equal(await readLine("3? "), "");
  assert.equal(await readLine("4? "), "last");
  assert.equal(await readLine("5? "), null);
  assert.deepEqual(asked, ["1? ", "2? ", "3? ", "4? ", "5? "]);
});

Deno.test("line reader opens its input only when the first question is asked", async () => {
  let opened = 0;
  const readLine = createLineReader({
    input: () => {
      opened++;
      return chunks(["a\nb\n"])();
    },
    write: () => undefined,
  });
  assert.equal(opened, 0);
  assert.equal(await readLine(""), "a");
  assert.equal(await readLine(""), "b");
  assert.equal(opened, 1);
});
