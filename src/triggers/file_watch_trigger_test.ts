import assert from "node:assert/strict";
import { join } from "node:path";
import { FileWatchTrigger, type FileWatchTriggerOptions } from "./file_watch_trigger.ts";
import { TriggerCancelledError, type TriggerEvent } from "./types.ts";

const DEBOUNCE_MS = 60;
const WAIT_MS = 3_000;

async function tempDir(): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "agentry_file_watch_" }));
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

async function watching(
  options: Omit<FileWatchTriggerOptions, "debounceMs"> & { debounceMs?: number },
): Promise<FileWatchTrigger> {
  const trigger = new FileWatchTrigger({ debounceMs: DEBOUNCE_MS, ...options });
  await trigger.start();
  return trigger;
}

/** The next event, failing after {@linkcode WAIT_MS}. */
async function next(trigger: FileWatchTrigger): Promise<TriggerEvent> {
  const event = trigger.waitForNext();
  event.catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("no event in time")), WAIT_MS);
  });
  try {
    return await Promise.race([event, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Writes a marker file and asserts that the next event is its creation (so nothing came before it). */
async function assertNextIsMarker(
  trigger: FileWatchTrigger,
  dir: string,
  name = "marker.txt",
): Promise<void> {
  await Deno.writeTextFile(join(dir, name), "marker");
  const event = await next(trigger);
  const { event_types, ...rest } = event.payload as { event_types: string[] };
  assert.deepEqual(rest, { path: join(dir, name), filename: name, event_type: "created" });
  assert.ok(event_types.includes("create"), String(event_types));
  assert.equal(trigger.queueSize, 0);
}

Deno.test("creating a file gives one created event although the OS reports create and modify", async () => {
  await using dir = await tempDir();
  const trigger = await watching({ watchPath: dir.path });
  try {
    await Deno.writeTextFile(join(dir.path, "a.txt"), "one");
    const event = await next(trigger);
    assert.equal(event.trigger_id, `file_watch-${dir.path}`);
    assert.equal(event.trigger_type, "file_watch");
    assert.deepEqual(event.payload, {
      path: join(dir.path, "a.txt"),
      filename: "a.txt",
      event_type: "created",
      event_types: ["create", "modify"],
    });
    await sleep(DEBOUNCE_MS * 3);
    assert.equal(trigger.queueSize, 0);
  } finally {
    await trigger.stop();
  }
});

Deno.test("writing an existing file gives one modified event", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(join(dir.path, "a.txt"), "one");
  const trigger = await watching({ watchPath: dir.path });
  try {
    await Deno.writeTextFile(join(dir.path, "a.txt"), "two");
    const event = await next(trigger);
    assert.equal((event.payload as { event_type: string }).event_type, "modified");
    assert.deepEqual((event.payload as { event_types: string[] }).event_types, ["modify"]);
    await assertNextIsMarker(trigger, dir.path);
  } finally {
    await trigger.stop();
  }
});

Deno.test("a quick burst of writes to one file gives one event", async () => {
  await using dir = await tempDir();
  const trigger = await watching({ watchPath: dir.path, debounceMs: 200 });
  try {
    const file = join(dir.path, "burst.log");
    for (let i = 0; i < 5; i++) {
      await Deno.writeTextFile(file, `line ${i}\n`, { append: true });
      await sleep(20);
    }
    const event = await next(trigger);
    assert.equal((event.payload as { event_type: string }).event_type, "created");
    await assertNextIsMarker(trigger, dir.path);
  } finally {
    await trigger.stop();
  }
});

Deno.test("patterns filter by base name and by relative path", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(join(dir.path, "reports", "2024"), { recursive: true });
  await Deno.mkdir(join(dir.path, "notes"));
  const trigger = await watching({
    watchPath: dir.path,
    patterns: ["*.csv", "reports/**/*.json", "marker.txt"],
  });
  try {
    await Deno.writeTextFile(join(dir.path, "skip.txt"), "x");
    await Deno.writeTextFile(join(dir.path, "notes", "skip.json"), "{}");
    await Deno.writeTextFile(join(dir.path, "notes", "data.csv"), "a,b");
    const csv = await next(trigger);
    assert.equal((csv.payload as { path: string }).path, join(dir.path, "notes", "data.csv"));
    await Deno.writeTextFile(join(dir.path, "reports", "2024", "q1.json"), "{}");
    const deep = await next(trigger);
    assert.equal((deep.payload as { filename: string }).filename, "q1.json");
    await Deno.writeTextFile(join(dir.path, "reports", "top.json"), "{}");
    const top = await next(trigger);
    assert.equal((top.payload as { path: string }).path, join(dir.path, "reports", "top.json"));
    await assertNextIsMarker(trigger, dir.path);
  } finally {
    await trigger.stop();
  }
});

Deno.test("events ['created'] ignores modifications", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(join(dir.path, "old.txt"), "one");
  const trigger = await watching({ watchPath: dir.path, events: ["created"] });
  try {
    await Deno.writeTextFile(join(dir.path, "old.txt"), "two");
    await sleep(DEBOUNCE_MS * 2);
    await assertNextIsMarker(trigger, dir.path);
  } finally {
    await trigger.stop();
  }
});

Deno.test("a file created and deleted within the window gives nothing", async () => {
  await using dir = await tempDir();
  const trigger = await watching({ watchPath: dir.path, debounceMs: 150 });
  try {
    await Deno.writeTextFile(join(dir.path, "temp.txt"), "x");
    await Deno.remove(join(dir.path, "temp.txt"));
    await sleep(200);
    await assertNextIsMarker(trigger, dir.path);
  } finally {
    await trigger.stop();
  }
});

Deno.test("directories themselves are not reported", async () => {
  await using dir = await tempDir();
  const trigger = await watching({ watchPath: dir.path });
  try {
    await Deno.mkdir(join(dir.path, "newdir"));
    await sleep(DEBOUNCE_MS * 2);
    await assertNextIsMarker(trigger, dir.path);
  } finally {
    await trigger.stop();
  }
});

Deno.test("start rejects for a missing directory and for a file", async () => {
  await using dir = await tempDir();
  const missing = new FileWatchTrigger({ watchPath: join(dir.path, "missing") });
  await assert.rejects(missing.start(), Deno.errors.NotFound);
  assert.equal(missing.running, false);
  const file = join(dir.path, "plain.txt");
  await Deno.writeTextFile(file, "x");
  await assert.rejects(new FileWatchTrigger({ watchPath: file }).start(), Deno.errors.NotADirectory);
});

Deno.test("after stop, waitForNext rejects with TriggerCancelledError and pending bursts are dropped", async () => {
  await using dir = await tempDir();
  const trigger = await watching({ watchPath: dir.path, debounceMs: 5_000 });
  await Deno.writeTextFile(join(dir.path, "pending.txt"), "x");
  await sleep(50);
  await trigger.stop();
  assert.equal(trigger.running, false);
  await assert.rejects(trigger.waitForNext(), TriggerCancelledError);
  await assert.rejects(trigger.waitForNext(), TriggerCancelledError);
});

Deno.test("the constructor refuses unknown events, a negative debounce and a bad glob", () => {
  const watchPath = ".";
  assert.throws(() => new FileWatchTrigger({ watchPath, events: ["deleted" as "created"] }), RangeError);
  assert.throws(() => new FileWatchTrigger({ watchPath, debounceMs: -1 }), RangeError);
  assert.throws(() => new FileWatchTrigger({ watchPath, patterns: ["[z-a]"] }), SyntaxError);
  const trigger = new FileWatchTrigger({ watchPath, triggerId: "fw-1" });
  assert.equal(trigger.triggerId, "fw-1");
  assert.equal(trigger.queueCapacity, 100);
  assert.deepEqual(trigger.patterns, ["*"]);
  assert.deepEqual(trigger.events, ["created", "modified"]);
  assert.equal(trigger.debounceMs, 500);
});
