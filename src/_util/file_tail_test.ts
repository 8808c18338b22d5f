import assert from "node:assert/strict";
import { join } from "node:path";
import { concatBytes } from "./concat_bytes.ts";
import { openForRead, readAt } from "./file_tail.ts";

Deno.test("readAt reads at an offset, and fewer bytes only where the file ends", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "f.txt");
    await Deno.writeTextFile(path, "0123456789");
    const opened = await openForRead(path);
    assert.ok(opened);
    using handle = opened.handle;
    assert.equal(opened.size, 10);
    const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    assert.equal(text(await readAt(handle, 3, 4)), "3456");
    assert.equal(text(await readAt(handle, 8, 5)), "89");
    assert.equal(text(concatBytes([await readAt(handle, 0, 2), await readAt(handle, 9, 1)])), "019");
    assert.equal(await openForRead(join(dir, "missing")), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
