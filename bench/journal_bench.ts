/**
 * Journal benchmark, side by side in one run: appends per second for the file (JSONL) and SQLite backends,
 * each without and with `sync` (`fdatasync` before `append` resolves, as `runtime start --fsync` runs
 * them), and memory for scale: one process appending back to back (sequential), and bursts of 64 appends in
 * flight on one process (group commit: the file journal writes and syncs a burst at once). Then the time a
 * deploy takes to recover a process from a journal of 100,000 entries: the read plus the replay of context,
 * conversation and budget, reading the whole journal (before) and reading back to the last checkpoint
 * (`recoveryStopAt`, what `AgentRuntime.deploy` does now); both recover the same state (checked).
 *
 * Usage: `deno run --allow-all bench/journal_bench.ts [--entries 20000] [--synced 2000] [--recovery 100000]`
 * (`--synced`: appends per synced case; each costs a disk flush). Writes `bench/results/journal.json`.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  FileJournal,
  type Journal,
  type JournalEntry,
  MemoryJournal,
  ProcessJournal,
  SqliteJournal,
} from "../src/journal/mod.ts";
import { BudgetTracker, Conversation, parseSection, replayContext } from "../src/runtime/mod.ts";
import { recoverConversation } from "../src/runtime/conversation.ts";
import { recoverBudget } from "../src/runtime/budget/recover_budget.ts";
import { recoveryStopAt } from "../src/runtime/recovery_stop_at.ts";
import { flag } from "./_serve_until_told.ts";

const ENTRIES = Number(flag("entries") ?? 20_000);
const SYNCED = Number(flag("synced") ?? 2_000);
const RECOVERY = Number(flag("recovery") ?? 100_000);
const BURST = 64;
const RESULTS = join(dirname(fileURLToPath(import.meta.url)), "results", "journal.json");

/** A typical `tool_result`-sized entry (about 300 bytes of JSON). */
function data(i: number): Record<string, unknown> {
  return {
    run_id: crypto.randomUUID(),
    tool: "orders__lookup_order",
    call_id: `call_${i}`,
    is_error: false,
    result: `order ${i}: shipped on 2026-11-20 to the warehouse in Lisbon`.repeat(3),
  };
}

function open(kind: string, dir: string, sync: boolean): Journal {
  if (kind === "file") return new FileJournal({ path: dir, sync });
  if (kind === "sqlite") return new SqliteJournal({ path: dir, sync });
  return new MemoryJournal({ maxEntriesPerProcess: RECOVERY + 10 });
}

async function withDir<T>(use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "agentry_journal_bench_" });
  try {
    return await use(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Appends per second: `count` appends, `inFlight` at a time (1: back to back). */
function appends(kind: string, sync: boolean, count: number, inFlight: number): Promise<number> {
  return withDir(async (dir) => {
    const journal = open(kind, dir, sync);
    try {
      const began = performance.now();
      for (let i = 0; i < count; i += inFlight) {
        const burst = Math.min(inFlight, count - i);
        await Promise.all(
          Array.from({ length: burst }, (_, j) => journal.append("writer", "tool_result", data(i + j))),
        );
      }
      return count / ((performance.now() - began) / 1000);
    } finally {
      await journal.close();
    }
  });
}

function budgetTracker(): BudgetTracker {
  const parsed = parseSection("budget", { enabled: true, max_runs_per_day: 1_000_000 });
  if (!parsed.ok) throw new Error("invalid budget section");
  return new BudgetTracker({ config: () => parsed.config });
}

/** What a deploy recovers from `entries` (context, conversation, budget), as comparable JSON. */
function recover(entries: readonly JournalEntry[]): string {
  const conversation = new Conversation();
  recoverConversation(conversation, entries);
  const budget = budgetTracker();
  recoverBudget(budget, entries);
  const context = replayContext(entries, {});
  return JSON.stringify({ context, conversation: conversation.messages(), budget: budget.snapshot() });
}

/** Fills a journal of RECOVERY entries, then times a deploy's recovery both ways on a reopened journal. */
function recovery(kind: string): Promise<{ full: number; since: number; read: number }> {
  return withDir(async (dir) => {
    const filled = open(kind, dir, false);
    const writer = new ProcessJournal(filled, { process: "big", level: "full" });
    const budget = budgetTracker();
    for (let i = 0; i < RECOVERY; i += BURST) {
      await Promise.all(Array.from({ length: Math.min(BURST, RECOVERY - i) }, (_, j) => {
        const n = i + j;
        if (n % 1000 === 499) {
          budget.startRun();
          return writer.record("checkpoint", {
            invocation: n,
            context: { step: n },
            conversation: [{ role: "user", content: `run ${n}` }],
            budget: budget.snapshot(),
          });
        }
        if (n % 10 === 9) return writer.record("context_update", { values: { step: n }, source: "agent" });
        return writer.record("tool_result", data(n));
      }));
    }
    const journal = kind === "memory" ? filled : (await filled.close(), open(kind, dir, false));
    const process = new ProcessJournal(journal, { process: "big", level: "full" });
    try {
      const timings = { full: [] as number[], since: [] as number[], read: [] as number[] };
      let expected = "";
      for (let round = 0; round < 3; round++) {
        let began = performance.now();
        const all = await process.read();
        expected = recover(all);
        timings.full.push(performance.now() - began);
        began = performance.now();
        const since = await process.read({ stopAt: recoveryStopAt({ budget: true, mission: false }) });
        const state = recover(since);
        timings.since.push(performance.now() - began);
        if (state !== expected) throw new Error(`the two recoveries differ: ${state} vs ${expected}`);
        timings.read.push(since.length);
      }
      if (!expected.includes(`"step":${RECOVERY - 1}`)) throw new Error(`wrong state: ${expected}`);
      return { full: median(timings.full), since: median(timings.since), read: timings.read[0] };
    } finally {
      await journal.close();
    }
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const n = (value: number) => Math.round(value).toLocaleString("en");

const results: Record<string, unknown> = {};
const rows: string[][] = [["backend", "sync", "sequential appends/s", `bursts of ${BURST}: appends/s`]];
for (const kind of ["file", "sqlite", "memory"]) {
  for (const sync of kind === "memory" ? [false] : [false, true]) {
    const count = sync ? SYNCED : ENTRIES;
    const sequential = await appends(kind, sync, count, 1);
    const burst = await appends(kind, sync, Math.max(count, BURST * 20), BURST);
    results[`${kind}${sync ? "_sync" : ""}`] = { sequential, burst };
    rows.push([kind, sync ? "fdatasync" : "no", n(sequential), n(burst)]);
  }
}
const recoveryRows: string[][] = [["backend", "whole journal", "to the last checkpoint", "entries read"]];
for (const kind of ["file", "sqlite", "memory"]) {
  const { full, since, read } = await recovery(kind);
  results[`${kind}_recovery_ms`] = { full, since, read };
  recoveryRows.push([kind, `${n(full)} ms`, `${since.toFixed(1)} ms`, n(read)]);
}

function table(lines: string[][]): string {
  const widths = lines[0].map((_, c) => Math.max(...lines.map((line) => line[c].length)));
  return lines.map((line) => line.map((cell, c) => cell.padEnd(widths[c])).join("  ")).join("\n");
}
console.log(table(rows));
console.log(`\nrecovery of a process with ${n(RECOVERY)} entries (read + replay, median of 3):`);
console.log(table(recoveryRows));
const machine = `deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} cores`;
console.log(machine);
await Deno.mkdir(dirname(RESULTS), { recursive: true });
await Deno.writeTextFile(
  RESULTS,
  JSON.stringify({ machine, entries: ENTRIES, synced: SYNCED, recovery: RECOVERY, results }, null, 2) + "\n",
);
