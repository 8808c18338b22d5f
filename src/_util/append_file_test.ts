import assert from "node:assert/strict";
import { AppendFile } from "./append_file.ts";
import { tempDir } from "./temp_dir.ts";

Deno.test("appends made together land in call order", async () => {
  await using dir = await tempDir();
  const file = new AppendFile(`${dir.path}/sub/log.txt`);
  const lines = Array.from({ length: 200 }, (_, i) => `${i}\n`);
  await Promise.all(lines.map((line) => file.append(line)));
  await file.close();
  assert.equal(await Deno.readTextFile(`${dir.path}/sub/log.txt`), lines.join(""));
});

Deno.test("an append after a torn last line starts on a fresh line", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/log.txt`;
  await Deno.writeTextFile(path, 'one\n{"torn');
  const file = new AppendFile(path, { sync: true });
  await file.append("two\n");
  await file.close();
  assert.equal(await Deno.readTextFile(path), 'one\n{"torn\ntwo\n');
});

Deno.test("replace rewrites the file after earlier appends; later appends go to the new file", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/log.txt`;
  const file = new AppendFile(path, { sync: true });
  const first = file.append("old\n");
  const replaced = file.replace("snapshot\n");
  const after = file.append("new\n");
  await Promise.all([first, replaced, after]);
  await file.close();
  assert.equal(await Deno.readTextFile(path), "snapshot\nnew\n");
  await assert.rejects(Deno.stat(`${path}.tmp`), Deno.errors.NotFound);
});

Deno.test("a failed write rejects its appends and later appends still work", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/log.txt`;
  await Deno.mkdir(path); // a directory where the file should be: opening fails
  const file = new AppendFile(path);
  await assert.rejects(file.append("lost\n"));
  await Deno.remove(path);
  await file.append("kept\n");
  await file.close();
  assert.equal(await Deno.readTextFile(path), "kept\n");
  await assert.rejects(file.append("late\n"), /closed/);
});

Deno.test("new files are created with mode 0600", async () => {
  await using dir = await tempDir();
  const file = new AppendFile(`${dir.path}/log.txt`);
  await file.append("x\n");
  await file.close();
  assert.equal((await Deno.stat(`${dir.path}/log.txt`)).mode! & 0o777, 0o600);
});
