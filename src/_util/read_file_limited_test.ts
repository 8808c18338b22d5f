import assert from "node:assert/strict";
import { join } from "node:path";
import { readFileLimited } from "./read_file_limited.ts";

async function tempFile(bytes: Uint8Array): Promise<{ path: string } & AsyncDisposable> {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "file.bin");
  await Deno.writeFile(path, bytes);
  return { path, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

Deno.test("readFileLimited reads a file whole up to the limit, and refuses one byte more", async () => {
  const bytes = new Uint8Array(1000).map((_, i) => i % 251);
  await using file = await tempFile(bytes);
  assert.deepEqual(readFileLimited(file.path, 1000), bytes);
  assert.deepEqual(readFileLimited(file.path, 5000), bytes);
  assert.equal(readFileLimited(file.path, 999), undefined);
});

Deno.test("readFileLimited reads an empty file", async () => {
  await using file = await tempFile(new Uint8Array(0));
  assert.deepEqual(readFileLimited(file.path, 10), new Uint8Array(0));
});

Deno.test({
  name: "readFileLimited reads past a size the file did not have at open, within the limit",
  ignore: Deno.build.os !== "linux",
  fn() {
    // Files under /proc report size 0 and hold more: the buffer has to grow while reading.
    const text = new TextDecoder().decode(readFileLimited("/proc/self/status", 1 << 20));
    assert.match(text, /^Name:/);
    assert.match(text, /\nVmRSS:/);
    assert.equal(readFileLimited("/proc/self/status", 16), undefined);
  },
});

Deno.test("readFileLimited throws what opening throws", () => {
  assert.throws(() => readFileLimited("/nonexistent/agentry-file", 10), Deno.errors.NotFound);
});
