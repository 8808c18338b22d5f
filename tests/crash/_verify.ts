/**
 * The crash test's checks after a restart: what the ledger says was acknowledged against what the runtime
 * and the model server show. Each failure reads `<broken promise>: <detail>`. Each broken promise is reported once: it is then dropped from the ledger so
 * later cycles do not report it again.
 *
 * @module
 */

import type { RuntimeClient } from "../../src/api/client.ts";
import type { DeadLetter } from "../../src/runtime/mod.ts";
import type { RecordedRequest } from "../../src/models/testing/mod.ts";
import { type Ledger, NOTE_PREFIX, TOKEN_PREFIX } from "./_load.ts";

const TOKEN = new RegExp(`"(${TOKEN_PREFIX}[^"]+)"`, "g");
const NOTE = new RegExp(`\\[${NOTE_PREFIX}[^\\]]*\\]`, "g");

/** What the model server was shown, indexed as it grows: runs per webhook token, inbox notes shown. */
export class ModelIndex {
  #requests: readonly RecordedRequest[];
  #indexed = 0;
  #runs = new Map<string, number>();
  #notes = new Set<string>();

  /** Indexes `requests` (the model server's growing list). */
  constructor(requests: readonly RecordedRequest[]) {
    this.#requests = requests;
  }

  /** Requests received so far. */
  get size(): number {
    return this.#requests.length;
  }

  /** How many requests had `token` (quoted, as in the JSON payload) in their last user message: its runs. */
  runsOf(token: string): number {
    this.#catchUp();
    return this.#runs.get(token) ?? 0;
  }

  /** Whether any request showed the inbox note `note` (the operator block is in the system messages). */
  shown(note: string): boolean {
    this.#catchUp();
    return this.#notes.has(note);
  }

  #catchUp(): void {
    for (; this.#indexed < this.#requests.length; this.#indexed++) {
      const messages = this.#requests[this.#indexed].messages;
      const last = messages.at(-1);
      if (last?.role === "user") {
        for (const [, token] of last.content.matchAll(TOKEN)) {
          this.#runs.set(token, (this.#runs.get(token) ?? 0) + 1);
        }
      }
      for (const message of messages) {
        for (const [note] of message.content.matchAll(NOTE)) this.#notes.add(note);
      }
    }
  }
}

/** Acknowledged deploys exist (started ones running), acknowledged removals stay removed, acknowledged context values are there. */
export async function checkState(client: RuntimeClient, ledger: Ledger): Promise<string[]> {
  const failures: string[] = [];
  const states = new Map((await client.listProcesses()).processes.map((p) => [p.name, p.state]));
  const names = new Set(states.keys());
  for (const name of ledger.removed) {
    if (!names.has(name)) continue;
    failures.push(`removal lost: process ${name} came back`);
    ledger.removed.delete(name);
  }
  for (const [name, process] of ledger.live) {
    if (!names.has(name)) {
      failures.push(`deploy lost: process ${name} is gone`);
      ledger.live.delete(name);
      continue;
    }
    if (process.port !== undefined && states.get(name) !== "running") {
      // Deployed with start: its desired state is running, and a restart restores it.
      failures.push(`desired state lost: started process ${name} came back ${states.get(name)}`);
      process.port = undefined; // reported once; its events are no longer checked
      process.events.clear();
    }
    const state = (await client.getContext(name)).state;
    for (const [key, value] of process.context) {
      if (state[key] !== value) {
        failures.push(`context lost: ${name}.${key}=${value} (found ${JSON.stringify(state[key])})`);
        process.context.delete(key);
      }
    }
  }
  return failures;
}

/**
 * Waits (at most `ms`, less once nothing moves for a while) until every acknowledged webhook event ran or
 * is dead-lettered, then reports those that did neither.
 */
export async function checkEvents(
  options: {
    ledger: Ledger;
    model: ModelIndex;
    /** The dead letters of a process. */
    deadLetters: (name: string) => Promise<DeadLetter[]>;
    /** Counts the reasons of the letters that hold acknowledged events. */
    reasons: Map<string, number>;
    ms: number;
  },
): Promise<string[]> {
  const { ledger, model } = options;
  const deadline = Date.now() + options.ms;
  let missing: Array<[string, string]> = [];
  let last = { requests: -1, missing: -1, at: Date.now() };
  while (true) {
    missing = [];
    for (const [name, process] of ledger.live) {
      const pending = [...process.events].filter((token) => model.runsOf(token) === 0);
      if (pending.length === 0) continue;
      const letters = (await options.deadLetters(name)).map((letter) => ({
        reason: letter.reason,
        text: JSON.stringify(letter.event.payload),
      }));
      for (const token of pending) {
        const letter = letters.find((l) => l.text.includes(`"${token}"`));
        if (!letter) {
          missing.push([name, token]);
          continue;
        }
        process.events.delete(token);
        options.reasons.set(letter.reason, (options.reasons.get(letter.reason) ?? 0) + 1);
      }
    }
    const moved = model.size !== last.requests || missing.length !== last.missing;
    if (moved) last = { requests: model.size, missing: missing.length, at: Date.now() };
    if (missing.length === 0 || Date.now() > deadline || Date.now() - last.at > 1_000) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  for (const [name, token] of missing) ledger.live.get(name)?.events.delete(token);
  return missing.map(([name, token]) =>
    `event lost: webhook event ${token} of ${name} neither ran nor was dead-lettered`
  );
}

/** Acknowledged inbox messages are still held or were shown to the model by a run. */
export async function checkInbox(
  client: RuntimeClient,
  options: { ledger: Ledger; model: ModelIndex },
): Promise<string[]> {
  const failures: string[] = [];
  for (const [name, process] of options.ledger.live) {
    if (process.messages.size === 0) continue;
    const held = new Set((await client.getInbox(name)).messages.map((m) => m.content));
    for (const content of process.messages) {
      if (held.has(content)) continue;
      if (options.model.shown(content)) {
        process.messages.delete(content); // consumed by a run: nothing left to check
        continue;
      }
      failures.push(`inbox message lost: ${content} of ${name}`);
      process.messages.delete(content);
    }
  }
  return failures;
}

/** Tokens run more than once (counted over every request the model server received, every cycle). */
export function checkRunOnce(ledger: Ledger, model: ModelIndex, reported: Set<string>): string[] {
  const failures: string[] = [];
  for (const token of ledger.tokens) {
    const runs = model.runsOf(token);
    if (runs > 1 && !reported.has(token)) {
      reported.add(token);
      failures.push(`event ran twice: webhook event ${token} ran ${runs} times`);
    }
  }
  return failures;
}
