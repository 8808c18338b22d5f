/**
 * Journal benchmark: appends per second for the file (JSONL) and SQLite backends (and memory, for scale),
 * one process appending `run`-sized entries back to back and 8 processes appending at once; then the time to
 * recover a process's context and conversation from a journal of 100,000 entries (what a deploy does after a
 * restart: one read of the journal, then the replay). Durability as documented in docs/control_api.md: an entry is handed to the operating system
 * (written, not fsynced) before `append` resolves.
 *
 * Usage: `deno run --allow-all bench/journal_bench.ts [--entries 20000] [--recovery 100000]`
 *
 * @module
 */

import {
  FileJournal,
  type Journal,
  MemoryJournal,
  ProcessJournal,
  SqliteJournal,
} from "../src/journal/mod.ts";
import { Conversation, replayContext } from "../src/runtime/mod.ts";
import { recoverConversation } from "../src/runtime/conversation.ts";
import { flag } from "./_serve_until_told.ts";

const ENTRIES = Number(flag("entries") ?? 20_000);
const RECOVERY = Number(flag("recovery") ?? 100_000);

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

async function withJournal<T>(kind: string, use: (journal: Journal) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "agentry_journal_bench_" });
  const journal: Journal = kind === "file"
    ? new FileJournal({ path: dir })
    : kind === "sqlite"
    ? new SqliteJournal({ path: dir })
    : new MemoryJournal();
  try {
    return await use(journal);
  } finally {
    await journal.close();
    await Deno.remove(dir, { recursive: true });
  }
}

async function appends(kind: string, writers: number): Promise<number> {
  return await withJournal(kind, async (journal) => {
    const each = Math.floor(ENTRIES / writers);
    const began = performance.now();
    await Promise.all(Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; i < each; i++) await journal.append(`p${w}`, "tool_result", data(i));
    }));
    return (each * writers) / ((performance.now() - began) / 1000);
  });
}

async function recovery(kind: string): Promise<{ fill: number; recover: number }> {
  return await withJournal(kind, async (journal) => {
    const process = new ProcessJournal(journal, { process: "big", level: "full" });
    const fillBegan = performance.now();
    for (let i = 0; i < RECOVERY; i++) {
      if (i % 10 === 9) await process.record("context_update", { values: { step: i }, source: "agent" });
      else if (i % 1000 === 999) {
        await process.record("checkpoint", { invocation: i, context: { step: i }, conversation: [] });
      } else await process.record("tool_result", data(i));
    }
    const fill = performance.now() - fillBegan;
    const began = performance.now();
    const entries = await process.read();
    const state = replayContext(entries, {});
    recoverConversation(new Conversation(), entries);
    const recover = performance.now() - began;
    if (state?.step !== RECOVERY - 1) throw new Error(`recovered the wrong state: ${JSON.stringify(state)}`);
    return { fill, recover };
  });
}

const rows: string[] = [];
for (const kind of ["file", "sqlite", "memory"]) {
  const one = await appends(kind, 1);
  const eight = await appends(kind, 8);
  rows.push(
    `${kind.padEnd(7)} appends/s: 1 writer ${Math.round(one).toLocaleString("en")}, 8 writers ${
      Math.round(eight).toLocaleString("en")
    }`,
  );
}
for (const kind of ["file", "sqlite"]) {
  const { recover } = await recovery(kind);
  rows.push(
    `${kind.padEnd(7)} recovery of ${RECOVERY.toLocaleString("en")} entries: ${
      Math.round(recover).toLocaleString("en")
    } ms`,
  );
}
console.log(rows.join("\n"));
console.log(`deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} cores`);
