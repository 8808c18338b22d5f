import assert from "node:assert/strict";
import { join } from "node:path";
import { tempDir } from "./_test_audit.ts";
import { endsWithNewline } from "../../_util/file_tail.ts";
import { readLogTail } from "./_log_tail.ts";

Deno.test("the log tail is read backwards in chunks, whatever the chunk size", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "log");
  const lines = ["first line", "second, with ünïcödé", "x".repeat(50), "last"];
  await Deno.writeTextFile(path, lines.join("\n") + "\n");
  for (const chunkSize of [1, 3, 7, 64, 1 << 16]) {
    assert.deepEqual(
      await readLogTail(path, chunkSize),
      { lines: [lines[2], "last"], terminated: true },
      `${chunkSize}`,
    );
  }
  await Deno.writeTextFile(path, '{"cut', { append: true });
  assert.deepEqual(await readLogTail(path, 5), { lines: ["last", '{"cut'], terminated: false });
  assert.equal(await endsWithNewline(path), false);
});

Deno.test("the log tail of a missing, empty or one-line file", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "log");
  assert.equal(await readLogTail(path), undefined);
  assert.equal(await endsWithNewline(path), true);
  await Deno.writeTextFile(path, "");
  assert.deepEqual(await readLogTail(path), { lines: [], terminated: true });
  await Deno.writeTextFile(path, "only\n");
  assert.deepEqual(await readLogTail(path, 2), { lines: ["only"], terminated: true });
  assert.equal(await endsWithNewline(path), true);
});
