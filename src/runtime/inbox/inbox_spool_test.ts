import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { tempDir } from "../../_util/temp_dir.ts";
import { Spool } from "../spool.ts";
import { testInbox } from "./_test_inbox.ts";

async function reopened(dir: string, settings: Record<string, unknown> = {}) {
  const spool = new Spool({ dir });
  const { inbox } = testInbox(settings);
  await inbox.openSpool(spool.forProcess("p"));
  return { inbox, spool };
}

Deno.test("messages answered queued come back in a new inbox on the same spool; questions do not", async () => {
  await using dir = await tempDir();
  const { inbox, spool } = await reopened(dir.path);
  const first = await inbox.send({
    content: "first",
    priority: "high",
    sender_id: "ops",
    metadata: { a: 1 },
  });
  await inbox.send({ content: "second", message_type: "context" });
  const asking = inbox.ask({ content: "why?", timeout: 30 });
  await spool.close();
  const { inbox: again, spool: spool2 } = await reopened(dir.path);
  const items = again.list();
  assert.deepEqual(items.map((i) => i.content), ["first", "second"]);
  assert.deepEqual(items[0], { ...inbox.list()[0], message_id: first.message_id });
  inbox.clear();
  await assert.rejects(asking);
  await spool2.close();
});

Deno.test("removed, cleared and settled messages stay gone after reopening", async () => {
  await using dir = await tempDir();
  const { inbox, spool } = await reopened(dir.path);
  await inbox.send({ content: "seen by a run" });
  const run = inbox.forRun();
  await inbox.send({ content: "arrived during the run" });
  run.settle("done", { invocationId: "i1" });
  await inbox.written();
  await spool.close();
  const { inbox: again, spool: spool2 } = await reopened(dir.path);
  assert.deepEqual(again.list().map((i) => i.content), ["arrived during the run"]);
  again.clear();
  await again.written();
  await spool2.close();
  const { inbox: third, spool: spool3 } = await reopened(dir.path);
  assert.deepEqual(third.list(), []);
  await spool3.close();
});

Deno.test("a kept message that expired while the runtime was down is purged, not listed", async () => {
  await using dir = await tempDir();
  const clock = FakeTimers.install({ toFake: ["Date"], now: Date.UTC(2026, 0, 1) });
  try {
    const { inbox, spool } = await reopened(dir.path);
    await inbox.send({ content: "short", ttl: 5 });
    await inbox.send({ content: "long", ttl: 600 });
    await spool.close();
    clock.tick(10_000);
    const { inbox: again, spool: spool2 } = await reopened(dir.path);
    assert.deepEqual(again.list().map((i) => i.content), ["long"]);
    await spool2.close();
  } finally {
    clock.uninstall();
  }
  const lines = (await Deno.readTextFile(`${dir.path}/p/inbox.jsonl`)).trim().split("\n");
  assert.equal(lines.filter((line) => line.includes('"op":"delete"')).length, 1);
});

Deno.test("a message whose spool write fails is refused and not held", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(`${dir.path}/p/inbox.jsonl`, { recursive: true }); // a directory where the log should be
  const spool = new Spool({ dir: dir.path });
  const { inbox } = testInbox();
  await assert.rejects(inbox.openSpool(spool.forProcess("p")));
  await Deno.remove(`${dir.path}/p/inbox.jsonl`);
  await inbox.openSpool(spool.forProcess("p"));
  await Deno.mkdir(`${dir.path}/p/inbox.jsonl`); // and again, now that the log is open: its first write fails
  await assert.rejects(inbox.send({ content: "lost", sender_id: "ops" }));
  assert.deepEqual(inbox.list(), []);
  await Deno.remove(`${dir.path}/p/inbox.jsonl`);
  await inbox.send({ content: "kept", sender_id: "ops" });
  assert.deepEqual(inbox.list().map((i) => i.content), ["kept"]);
  await spool.close();
});
