/**
 * {@linkcode EventLedger}: every trigger event a process accepted and has not finished, and its dead
 * letters, kept in the process spool's `events` log (`<data-dir>/queues/<process>/events.jsonl`), one
 * record per `event_id`.
 *
 * A record is put (with the whole event) when the event is accepted; later changes are small patches:
 * `begun` (a run of attempt n begins; written before the run starts), `retrying` (the attempt failed and
 * waits for its backoff), `dead` (given up: reason, error, attempts, time). A successful run deletes the
 * record. At each start the records a crash left open are handled first ({@linkcode EventLedger.recover}):
 * `accepted` and `retrying` events are queued again in acceptance order, `begun` ones (their run was in
 * flight when the runtime died and may have had effects) are dead-lettered `interrupted`, so an event runs
 * at most once unless an operator redelivers it. Dead letters are kept in a {@linkcode DeadLetters} ring,
 * rebuilt from the log at open; a letter the ring drops is deleted from the log.
 *
 * @module
 */

import { type DeadLetter, DeadLetters } from "./dead_letters.ts";
import type { ProcessEvent } from "./process_event.ts";
import type { ProcessSpool, SpoolLog } from "./spool.ts";

/** Where an accepted event stands. */
export type LedgerState = "accepted" | "begun" | "retrying" | "dead";

/** One stored record of the ledger. */
export interface LedgerRecord {
  /** The event as accepted. */
  event: ProcessEvent;
  /** Where it stands. */
  state: LedgerState;
  /** Runs begun for it. */
  attempts: number;
  /** `dead`: why it was given up. */
  reason?: string;
  /** `dead`: `<ErrorName>: <message>` of the last failure, or null. */
  error?: string | null;
  /** `dead`: ISO 8601 UTC time. */
  dead_lettered_at?: string;
}

/** An event to queue again at a start, with the attempt its next run is. */
export interface RecoveredEvent {
  /** The event. */
  event: ProcessEvent;
  /** Attempt of its next run (1 for an event that never ran). */
  attempt: number;
}

/** A letter to add (the ledger stamps the time). */
export type NewDeadLetter = Omit<DeadLetter, "dead_lettered_at">;

type Store = Pick<SpoolLog<LedgerRecord>, "put" | "patch" | "delete" | "get" | "values" | "close">;

/** What a ledger reports to its listeners: a new event accepted, or an event given up. */
export type LedgerChange =
  | { kind: "accepted"; event: ProcessEvent }
  | { kind: "dead_lettered"; letter: DeadLetter };

/** The accepted, unfinished events of one process and its dead letters. */
export class EventLedger {
  /** The dead letters held (newest `dead_letter_size`), oldest first. */
  readonly deadLetters: DeadLetters;
  #store: Store = new MemoryStore();
  #pending = new Map<string, Promise<void>>();
  #listeners = new Set<(change: LedgerChange) => void>();

  /** A memory-only ledger keeping `capacity` dead letters until {@linkcode EventLedger.open}. */
  constructor(capacity: number) {
    this.deadLetters = new DeadLetters(capacity, { onDrop: (letter) => this.#forget(letter.event.event_id) });
  }

  /**
   * Opens the spool's `events` log and rebuilds the dead letters from it (the newest `capacity`; older
   * letters are deleted from the log). Open events stay as they are until {@linkcode EventLedger.recover}.
   */
  async open(spool: ProcessSpool, capacity: number): Promise<void> {
    const log = await spool.open("events", parseRecord);
    await this.#store.close();
    this.#store = log;
    this.deadLetters.take();
    this.deadLetters.resize(capacity);
    const letters = log.values().filter((r) => r.state === "dead")
      .sort((a, b) => (a.dead_lettered_at ?? "").localeCompare(b.dead_lettered_at ?? ""));
    for (const record of letters) this.deadLetters.add(letterOf(record));
  }

  /** Changes how many dead letters are kept (the oldest go, from the log too). */
  resize(capacity: number): void {
    this.deadLetters.resize(capacity);
  }

  /** Events accepted and not finished (neither run successfully nor dead-lettered). */
  get openCount(): number {
    return this.#store.values().filter((r) => r.state !== "dead").length;
  }

  /**
   * Records an accepted event; resolves once written. Idempotent by `event_id`: an open event is left as
   * it is (the promise of its first write is answered); a dead letter with this id is accepted again. A
   * failed write forgets the event and rejects.
   */
  accept(event: ProcessEvent): Promise<void> {
    const id = event.event_id;
    const current = this.#store.get(id);
    if (current && current.state !== "dead") return this.#pending.get(id) ?? Promise.resolve();
    if (current) this.deadLetters.take([id]);
    else this.#notify({ kind: "accepted", event });
    const written = this.#store.put(id, { event, state: "accepted", attempts: 0 }).catch(async (error) => {
      await this.#store.delete(id).catch(() => {});
      throw error;
    });
    this.#pending.set(id, written);
    const done = () => {
      if (this.#pending.get(id) === written) this.#pending.delete(id);
    };
    written.then(done, done);
    return written;
  }

  /** A run of `attempt` begins; resolves once written (a run never begins unrecorded). */
  begin(eventId: string, attempt: number): Promise<void> {
    return this.#store.patch(eventId, { state: "begun", attempts: attempt });
  }

  /** The last attempt failed; the event waits for its retry. */
  retry(eventId: string): Promise<void> {
    return this.#store.patch(eventId, { state: "retrying" });
  }

  /** The event's run succeeded: it is forgotten. */
  settle(eventId: string): Promise<void> {
    return this.#store.delete(eventId);
  }

  /** Gives an event up: it becomes a dead letter (stored, and held while the ring keeps it). */
  deadLetter(letter: NewDeadLetter): Promise<void> {
    const id = letter.event.event_id;
    const dead_lettered_at = new Date().toISOString();
    const fields = {
      state: "dead" as const,
      attempts: letter.attempts,
      reason: letter.reason,
      error: letter.error,
    };
    const current = this.#store.get(id);
    if (current?.state === "dead") this.deadLetters.take([id]);
    const written = current
      ? this.#store.patch(id, { ...fields, dead_lettered_at })
      : this.#store.put(id, { event: letter.event, ...fields, dead_lettered_at });
    this.deadLetters.add({ ...letter, dead_lettered_at });
    this.#notify({ kind: "dead_lettered", letter: { ...letter, dead_lettered_at } });
    return written;
  }

  /** Reports new accepted events and dead letters to `listener`; returns an unsubscribe function. */
  subscribe(listener: (change: LedgerChange) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  #notify(change: LedgerChange): void {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch {
        // a listener's failure never undoes the change
      }
    }
  }

  /**
   * At a start, before new events: dead-letters events whose run was in flight when the runtime died
   * (`interrupted`) and answers the events to queue again (accepted or waiting for a retry), in
   * acceptance order. The writes are not awaited (an unwritten change is redone at the next start).
   */
  recover(): { queued: RecoveredEvent[]; interrupted: number } {
    const queued: RecoveredEvent[] = [];
    let interrupted = 0;
    for (const record of this.#store.values()) {
      if (record.state === "accepted" || record.state === "retrying") {
        queued.push({ event: record.event, attempt: record.attempts + 1 });
      } else if (record.state === "begun") {
        interrupted++;
        void this.deadLetter({
          event: record.event,
          reason: "interrupted",
          error: null,
          attempts: record.attempts,
        })
          .catch(() => {});
      }
    }
    return { queued, interrupted };
  }

  /** Dead-letters every open event with `reason` (stop, failure); resolves once written. */
  async abandon(reason: string): Promise<number> {
    const open = this.#store.values().filter((r) => r.state !== "dead");
    await Promise.all(
      open.map((r) => this.deadLetter({ event: r.event, reason, error: null, attempts: r.attempts })),
    );
    return open.length;
  }

  /**
   * Takes dead letters (all, or these event ids) and accepts their events again, oldest first; answers
   * the events and the promise of their writes.
   */
  redeliver(eventIds?: readonly string[]): { events: ProcessEvent[]; written: Promise<void> } {
    const events = this.deadLetters.take(eventIds).map((letter) => letter.event);
    const writes = events.map((event) =>
      this.#store.put(event.event_id, { event, state: "accepted", attempts: 0 })
    );
    return { events, written: Promise.all(writes).then(() => {}) };
  }

  /** Removes every dead letter (from the log too); answers how many there were. */
  async clear(): Promise<number> {
    const letters = this.deadLetters.take();
    await Promise.all(letters.map((letter) => this.#forgetNow(letter.event.event_id)));
    return letters.length;
  }

  /** Waits for pending writes and releases the log. */
  async close(): Promise<void> {
    await this.#store.close();
  }

  #forget(eventId: string): void {
    void this.#forgetNow(eventId).catch(() => {}); // a letter left behind is dropped again at the next open
  }

  #forgetNow(eventId: string): Promise<void> {
    return this.#store.get(eventId)?.state === "dead" ? this.#store.delete(eventId) : Promise.resolve();
  }
}

function letterOf(record: LedgerRecord): DeadLetter {
  return {
    event: record.event,
    reason: record.reason ?? "unknown",
    error: record.error ?? null,
    attempts: record.attempts,
    dead_lettered_at: record.dead_lettered_at ?? new Date(0).toISOString(),
  };
}

const STATES: ReadonlySet<string> = new Set<LedgerState>(["accepted", "begun", "retrying", "dead"]);

/** Checks one stored record (the log's edge: a foreign or damaged line is skipped with a warning). */
export function parseRecord(value: unknown): LedgerRecord {
  const record = value as Partial<LedgerRecord> | null;
  const event = record?.event as Partial<ProcessEvent> | undefined;
  const ok = typeof record === "object" && record !== null && typeof record.state === "string" &&
    STATES.has(record.state) && Number.isInteger(record.attempts) && record.attempts! >= 0 &&
    typeof event === "object" && event !== null && typeof event.event_id === "string" &&
    typeof event.trigger_id === "string" && typeof event.trigger_type === "string" &&
    typeof event.timestamp === "string" && typeof event.metadata === "object" && event.metadata !== null &&
    (record.reason === undefined || typeof record.reason === "string") &&
    (record.error === undefined || record.error === null || typeof record.error === "string") &&
    (record.dead_lettered_at === undefined || typeof record.dead_lettered_at === "string");
  if (!ok) throw new TypeError("not an event ledger record");
  return record as LedgerRecord;
}

/** The ledger's store before a spool is opened (library use without a runtime). */
class MemoryStore implements Store {
  #records = new Map<string, LedgerRecord>();

  get(key: string): LedgerRecord | undefined {
    return this.#records.get(key);
  }

  values(): LedgerRecord[] {
    return [...this.#records.values()];
  }

  put(key: string, value: LedgerRecord): Promise<void> {
    this.#records.set(key, value);
    return Promise.resolve();
  }

  patch(key: string, fields: Partial<LedgerRecord>): Promise<void> {
    const current = this.#records.get(key);
    if (current) this.#records.set(key, { ...current, ...fields });
    return Promise.resolve();
  }

  delete(key: string): Promise<void> {
    this.#records.delete(key);
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
