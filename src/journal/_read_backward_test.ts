import assert from "node:assert/strict";
import { join } from "node:path";
import { tempDir } from "../_util/temp_dir.ts";
import { endsWithNewline, openForRead } from "../_util/file_tail.ts";
import { readLinesBackward } from "./_read_backward.ts";

const decoder = new TextDecoder();

async function linesOf(file: string, chunkSize: number): Promise<string[]> {
  const opened = await openForRead(file);
  assert.ok(opened);
  using handle = opened.handle;
  const lines = [];
  for await (const line of readLinesBackward(handle, { size: opened.size, chunkSize })) {
    lines.push(decoder.decode(line));
  }
  return lines;
}

Deno.test("readLinesBackward yields non-empty lines last first for every chunk size", async () => {
  await using dir = await tempDir();
  const file = join(dir.path, "lines.txt");
  const text = "alpha\nbb\n\nçé🙂 long line here\nz\nlast without newline";
  await Deno.writeTextFile(file, text);
  const expected = text.split("\n").filter(Boolean).reverse();
  for (let chunkSize = 1; chunkSize <= text.length + 3; chunkSize++) {
    assert.deepEqual(await linesOf(file, chunkSize), expected, `chunkSize ${chunkSize}`);
  }
});

Deno.test("readLinesBackward yields nothing for an empty file and openForRead reports a missing one", async () => {
  await using dir = await tempDir();
  const file = join(dir.path, "empty.txt");
  await Deno.writeTextFile(file, "\n\n");
  assert.deepEqual(await linesOf(file, 4), []);
  assert.equal(await openForRead(join(dir.path, "missing.txt")), undefined);
});

Deno.test("endsWithNewline is true for missing, empty and newline-terminated files only", async () => {
  await using dir = await tempDir();
  const file = join(dir.path, "f.txt");
  assert.equal(await endsWithNewline(file), true);
  await Deno.writeTextFile(file, "");
  assert.equal(await endsWithNewline(file), true);
  await Deno.writeTextFile(file, "a\n");
  assert.equal(await endsWithNewline(file), true);
  await Deno.writeTextFile(file, "a\nb");
  assert.equal(await endsWithNewline(file), false);
});
