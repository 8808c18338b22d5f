import assert from "node:assert/strict";
import { join } from "node:path";
import { FileJournal, type Journal, MemoryJournal, SqliteJournal } from "../journal/mod.ts";
import type { JournalEntry } from "../journal/mod.ts";
import { Logger } from "../log.ts";
import { tempDir } from "../_util/temp_dir.ts";
import { parseSection } from "./config/mod.ts";
import { MissionConfigSchema } from "./config/mission_config.ts";
import { BudgetTracker } from "./budget/budget_tracker.ts";
import { recoverBudget } from "./budget/recover_budget.ts";
import { replayContext } from "./context/recover_context.ts";
import { Conversation, recoverConversation } from "./conversation.ts";
import { MissionTracker } from "./mission/mission_tracker.ts";
import { recoverMission } from "./mission/recover_mission.ts";
import { type RecoveryNeeds, recoveryStopAt } from "./recovery_stop_at.ts";

function budgetTracker(): BudgetTracker {
  const parsed = parseSection("budget", { enabled: true, max_runs_per_day: 1000 });
  if (!parsed.ok) throw new Error("invalid budget section");
  return new BudgetTracker({ config: () => parsed.config });
}

function missionTracker(): MissionTracker {
  const config = MissionConfigSchema.parse({ enabled: true, objective: "Ship it" });
  const host = {
    name: "p",
    processId: "pid",
    config: { mission: config },
    journal: undefined,
    suspend: () => Promise.resolve(),
    stop: () => Promise.resolve(),
    resolveReferences: <T>(value: T) => value,
  };
  return new MissionTracker(host as unknown as ConstructorParameters<typeof MissionTracker>[0], {
    logger: new Logger("test", { sink: () => {} }),
    now: () => 1_000_000,
  });
}

/** Everything a deploy recovers from `entries`, with the real recovery functions. */
function recovered(entries: readonly JournalEntry[], needs: RecoveryNeeds) {
  const conversation = new Conversation();
  recoverConversation(conversation, entries);
  const budget = budgetTracker();
  const mission = missionTracker();
  return {
    context: replayContext(entries, { initial: true }),
    conversation: conversation.messages(),
    budget: needs.budget ? [recoverBudget(budget, entries), budget.snapshot()] : undefined,
    mission: needs.mission ? [recoverMission(mission, entries), mission.snapshot()] : undefined,
  };
}

/** A seeded generator, so a failure replays. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** Appends one entry of a varied kind: checkpoints with and without each part, resets, rewinds, updates. */
async function appendSome(journal: Journal, next: () => number, i: number): Promise<void> {
  const pick = next();
  const tracker = budgetTracker();
  for (let run = 0; run < i % 5; run++) tracker.startRun();
  const progress = { ...missionTracker().snapshot(), invocations: i };
  if (pick < 0.3) {
    await journal.append("p", "context_update", {
      values: { [`k${i % 4}`]: next() < 0.2 ? null : i },
      source: "api",
    });
  } else if (pick < 0.55) {
    const data: Record<string, unknown> = {
      invocation: i,
      conversation: [{ role: "user", content: `m${i}` }],
    };
    if (next() < 0.8) data.context = { at: i };
    if (next() < 0.6) data.budget = tracker.snapshot();
    const mission = next();
    if (mission < 0.5) data.mission = progress;
    else if (mission < 0.6) data.mission = { broken: i };
    await journal.append("p", "checkpoint", data);
  } else if (pick < 0.62) {
    await journal.append("p", "context_update", { values: {}, source: "system", reset: true });
  } else if (pick < 0.75) {
    await journal.append("p", "mission_state", {
      to: next() < 0.5 ? "paused" : "active",
      mission_reason: `r${i}`,
    });
  } else if (pick < 0.8) {
    await journal.append("p", "rewind", { target_entry_id: "x", mode: "both" });
  } else {
    await journal.append("p", "state_transition", { to_state: "running" });
  }
}

const BACKENDS: Record<string, (dir: string) => Journal> = {
  memory: () => new MemoryJournal({ maxEntriesPerProcess: 100_000 }),
  file: (dir) => new FileJournal({ path: join(dir, "file") }),
  sqlite: (dir) => new SqliteJournal({ path: join(dir, "sqlite") }),
};

for (const [backend, open] of Object.entries(BACKENDS)) {
  Deno.test(`${backend} journal: recovery from the entries since the stop point equals recovery from all`, async () => {
    await using dir = await tempDir();
    const journal = open(dir.path);
    try {
      const next = random(backend.length * 7919);
      let shorter = 0;
      for (let i = 0; i < 400; i++) {
        await appendSome(journal, next, i);
        if (i % 3 !== 0) continue;
        const all = await journal.read("p");
        for (const needs of [{ budget: true, mission: true }, { budget: false, mission: false }]) {
          const since = await journal.read("p", { stopAt: recoveryStopAt(needs) });
          assert.deepEqual(since, all.slice(all.length - since.length), `a suffix at ${i}`);
          assert.deepEqual(
            recovered(since, needs),
            recovered(all, needs),
            `entry ${i}, ${JSON.stringify(needs)}`,
          );
          if (since.length < all.length) shorter++;
        }
      }
      assert.ok(shorter > 200, `the stop point cut the read short ${shorter} times`);
    } finally {
      await journal.close();
    }
  });
}

Deno.test("recovery stops at the newest reset, and reads past a checkpoint lacking a needed part", () => {
  const entry = (entry_type: string, data: Record<string, unknown>): JournalEntry => ({
    entry_id: crypto.randomUUID(),
    process: "p",
    entry_type,
    timestamp: new Date().toISOString(),
    data,
  });
  const stop = recoveryStopAt({ budget: true, mission: false });
  assert.equal(stop(entry("checkpoint", { context: {} })), false, "no budget yet");
  assert.equal(stop(entry("context_update", { values: {} })), false);
  assert.equal(stop(entry("checkpoint", { budget: {} })), true, "context seen before, budget now");
  const reset = recoveryStopAt({ budget: true, mission: true });
  assert.equal(reset(entry("context_update", { values: {}, reset: true })), true);
  const mission = recoveryStopAt({ budget: false, mission: true });
  assert.equal(mission(entry("checkpoint", { context: {}, mission: { broken: true } })), false);
  assert.equal(
    mission(entry("checkpoint", { context: {}, mission: missionTracker().snapshot() })),
    false,
    "the newest progress could not be restored: recovery replays every mission_state since the reset",
  );
});
