import assert from "node:assert/strict";
import { join } from "node:path";
import { changedFiles, snapshotFiles } from "./file_stamps.ts";

async function tempTree(files: Record<string, string>): Promise<AsyncDisposable & { path: string }> {
  const path = await Deno.makeTempDir({ prefix: "agentry-reload-" });
  for (const [name, text] of Object.entries(files)) {
    await Deno.mkdir(join(path, name, ".."), { recursive: true });
    await Deno.writeTextFile(join(path, name), text);
  }
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

Deno.test("reload watches .ts, .js and .json files recursively, skipping node_modules and dot-dirs", async () => {
  await using dir = await tempTree({
    "server.ts": "export {};",
    "lib/util.js": "",
    "lib/deep/data.json": "{}",
    "README.md": "",
    "node_modules/pkg/index.js": "",
    ".git/hooks/x.ts": "",
    "lib/.cache/y.ts": "",
  });
  const stamps = await snapshotFiles(dir.path);
  assert.deepEqual([...stamps.keys()].sort(), [
    join(dir.path, "lib/deep/data.json"),
    join(dir.path, "lib/util.js"),
    join(dir.path, "server.ts"),
  ]);
});

Deno.test("reload sees added, modified and deleted files", async () => {
  await using dir = await tempTree({ "a.ts": "1", "b.ts": "2", "c.ts": "3" });
  const before = await snapshotFiles(dir.path);
  assert.deepEqual(changedFiles(before, await snapshotFiles(dir.path)), []);
  await Deno.writeTextFile(join(dir.path, "a.ts"), "changed");
  await Deno.remove(join(dir.path, "b.ts"));
  await Deno.writeTextFile(join(dir.path, "d.ts"), "new");
  const after = await snapshotFiles(dir.path);
  assert.deepEqual(changedFiles(before, after), ["a.ts", "b.ts", "d.ts"].map((name) => join(dir.path, name)));
});

Deno.test("a missing watch directory is an empty snapshot", async () => {
  assert.equal((await snapshotFiles("/nonexistent/agentry-reload")).size, 0);
});
