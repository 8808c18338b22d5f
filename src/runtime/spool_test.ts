import assert from "node:assert/strict";
import { tempDir } from "../_util/temp_dir.ts";
import { Spool } from "./spool.ts";

const parse = (value: unknown) => value as { n: number };

Deno.test("a second handle on a name reads what the first wrote; a new spool reads folders found on disk", async () => {
  await using dir = await tempDir();
  const spool = new Spool({ dir: dir.path });
  const first = spool.forProcess("p");
  await (await first.open("events", parse)).put("a", { n: 1 });
  await first.close();
  const second = spool.forProcess("p");
  assert.deepEqual((await second.open("events", parse)).values(), [{ n: 1 }]);
  await second.close();
  const restarted = new Spool({ dir: dir.path });
  const third = restarted.forProcess("p");
  assert.deepEqual((await third.open("events", parse)).values(), [{ n: 1 }]);
  assert.deepEqual((await restarted.forProcess("q").open("events", parse)).values(), []);
  await restarted.close();
});

Deno.test("remove deletes a process's folder; the name deployed again starts empty", async () => {
  await using dir = await tempDir();
  const spool = new Spool({ dir: dir.path });
  await (await spool.forProcess("p").open("inbox", parse)).put("a", { n: 1 });
  await spool.remove("p");
  await assert.rejects(Deno.stat(`${dir.path}/p`), Deno.errors.NotFound);
  const again = spool.forProcess("p");
  assert.deepEqual((await again.open("inbox", parse)).values(), []);
  await spool.close();
});
