/**
 * Rewind over the real CLI and socket: plan, rewind with an actor, the journal, and a restart on the same
 * data dir that brings the rewound state back.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { RuntimeApiError } from "../src/api/client.ts";
import { tempDir } from "./_cli_harness.ts";
import { startRuntime } from "./_agent_harness.ts";
import { startModelServer } from "../src/models/testing/mod.ts";

Deno.test("rewind routes over the CLI: plan, rewind, journal entry, and the rewound state after a restart", async () => {
  await using dir = await tempDir();
  await using model = startModelServer();
  const env = { OPENAI_COMPATIBLE_BASE_URL: model.url };
  const args = ["--data-dir", join(dir.path, "state")];
  {
    await using runtime = await startRuntime(args, env);
    const { client } = runtime;
    await client.deploy("keeper", {
      model: "openai-compatible:m",
      journal: { level: "checkpoint", backend: "file" },
    }, { start: true });
    await client.updateContext("keeper", { step: 1 });
    await client.updateContext("keeper", { step: 2, extra: true });
    const writes = (await client.getJournal("keeper", { entryType: "context_update" })).entries;
    const target = writes[1].entry_id;

    const plan = await client.rewindPlan("keeper", target, { mode: "code_only" });
    assert.equal(plan.mode, "code_only");
    assert.equal(plan.code_entries_affected, 1);
    assert.deepEqual(
      (await client.getContext("keeper")).state,
      { step: 2, extra: true },
      "the plan changed nothing",
    );

    const done = await client.rewind("keeper", target, { mode: "both", actor: "ops" });
    assert.equal(done.applied, true);
    assert.equal(done.state, "running");
    assert.deepEqual((await client.getContext("keeper")).state, { step: 1 });
    const [entry] = (await client.getJournal("keeper", { entryType: "rewind" })).entries;
    assert.equal(entry.entry_id, done.rewind_entry_id);
    assert.equal(entry.data.actor, "ops");
    assert.equal(entry.data.target_entry_id, target);

    const refusal = await client.rewind("keeper", "no-such-entry").catch((error) => error);
    assert.ok(refusal instanceof RuntimeApiError);
    assert.equal(refusal.statusCode, 404);
    assert.equal(refusal.code, "ENTRY_NOT_FOUND");
  }
  await using again = await startRuntime(args, env);
  assert.deepEqual(
    (await again.client.getContext("keeper")).state,
    { step: 1 },
    "the rewound state survived",
  );
});
