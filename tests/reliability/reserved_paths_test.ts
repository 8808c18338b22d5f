/**
 * Issue 14 item 8, replayed against the real binary: "a process journal can be pointed into the process
 * store". Before the fix `journal.path` = `<data-dir>/processes` was accepted and the journal's lines then
 * corrupted `processes.jsonl`. Now a journal (or memory directory) inside the runtime's own `processes/`,
 * `queues/` or `runtime.lock`, directly or through a symlink, is refused with 403 PATH_NOT_ALLOWED and
 * nothing is stored; a journal elsewhere in the data dir is still fine.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { tempDir } from "../_cli_harness.ts";
import { runtimeOn } from "./_runtime_on.ts";

/** No run happens: the model endpoint is never called. */
const ENV = { OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:9/v1" };

Deno.test("a journal or memory path inside the runtime's own files is 403 PATH_NOT_ALLOWED and nothing is stored", async () => {
  await using dir = await tempDir();
  const dataDir = join(dir.path, "state");
  await using runtime = await runtimeOn(dataDir, { root: dir.path, env: ENV });
  const { client, api } = runtime;
  const base = { model: "openai-compatible:echo", instructions: "Journal me." };
  await client.deploy("first", base); // the store and its directory exist
  await Deno.mkdir(join(dataDir, "queues"), { recursive: true });
  await Deno.symlink(join(dataDir, "processes"), join(dataDir, "innocent"));
  const storeBefore = await Deno.readTextFile(join(dataDir, "processes", "processes.jsonl"));

  const refused: Array<[string, Record<string, unknown>]> = [
    ["journal.path", { journal: { backend: "file", level: "full", path: join(dataDir, "processes") } }],
    ["journal.path", { journal: { backend: "file", level: "full", path: join(dataDir, "queues", "x") } }],
    ["journal.path", {
      journal: { backend: "sqlite", level: "full", path: join(dataDir, "processes", "db") },
    }],
    ["journal.path", { journal: { backend: "file", level: "full", path: join(dataDir, "runtime.lock") } }],
    ["journal.path", { journal: { backend: "file", level: "full", path: join(dataDir, "innocent") } }],
    ["journal.path", {
      journal: { backend: "file", level: "full", path: `${dataDir}/journal/../processes` },
    }],
    ["context.memory_persist_directory", {
      context: { memory_persist_directory: join(dataDir, "queues") },
    }],
  ];
  for (const [index, [field, extra]] of refused.entries()) {
    const answer = await api("POST", "/processes", { name: `bad-${index}`, config: { ...base, ...extra } });
    assert.equal(answer.status, 403, `${JSON.stringify(extra)}: ${answer.text}`);
    const { error } = JSON.parse(answer.text);
    assert.equal(error.code, "PATH_NOT_ALLOWED");
    assert.match(error.message, new RegExp(`\\(at config\\.${field.replaceAll(".", "\\.")}\\)`));
  }
  assert.deepEqual((await client.listProcesses()).processes.map((p) => p.name), ["first"]);
  assert.equal(
    await Deno.readTextFile(join(dataDir, "processes", "processes.jsonl")),
    storeBefore,
    "nothing stored",
  );
  const entries = [];
  for await (const entry of Deno.readDir(join(dataDir, "processes"))) entries.push(entry.name);
  assert.deepEqual(entries, ["processes.jsonl"], "no journal file among the store's");

  // A journal elsewhere in the data dir is fine, and the store still reads back after a restart.
  const journalDir = join(dataDir, "journals", "kept");
  await client.deploy("kept", { ...base, journal: { backend: "file", level: "full", path: journalDir } }, {
    start: true,
  });
  assert.equal(await runtime.stop(), 0);
  await using again = await runtimeOn(dataDir, { root: dir.path, env: ENV });
  assert.deepEqual((await again.client.listProcesses()).processes.map((p) => [p.name, p.state]), [
    ["first", "created"],
    ["kept", "running"],
  ]);
  assert.equal(again.cli.stderr.filter((line) => line.includes("unreadable stored deployment")).length, 0);
  assert.equal(await again.stop(), 0);
});
