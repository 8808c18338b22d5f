/**
 * Dead letters: events a process gave up on, kept (newest `capacity`) so an operator can see and
 * redeliver them.
 *
 * @module
 */

import type { ProcessEvent } from "./process_event.ts";

/** Why an event was dead-lettered. */
export type DeadLetterReason =
  | "retries exhausted"
  | "process failed"
  | "process stopped"
  | "queue full"
  | "interrupted"
  | "no runner"
  | string;

/** One dead letter. */
export interface DeadLetter {
  /** The event. */
  event: ProcessEvent;
  /** Why it was given up: a {@linkcode DeadLetterReason} (`retries exhausted`, `interrupted`, ...). */
  reason: string;
  /** `<ErrorName>: <message>` of the last failure, or null. */
  error: string | null;
  /** Runs tried. */
  attempts: number;
  /** ISO 8601 UTC time. */
  dead_lettered_at: string;
}

/** Options for {@linkcode DeadLetters}. */
export interface DeadLettersOptions {
  /** Called with each letter the ring drops to keep its capacity (the event ledger forgets it). */
  onDrop?: (letter: DeadLetter) => void;
}

/** A ring buffer of dead letters. */
export class DeadLetters {
  #capacity: number;
  #letters: DeadLetter[] = [];
  #total = 0;
  #onDrop: ((letter: DeadLetter) => void) | undefined;

  /** Keeps the newest `capacity` letters (0 keeps none but still counts). */
  constructor(capacity: number, options: DeadLettersOptions = {}) {
    this.#capacity = capacity;
    this.#onDrop = options.onDrop;
  }

  /** Letters held. */
  get size(): number {
    return this.#letters.length;
  }

  /** Letters ever added. */
  get total(): number {
    return this.#total;
  }

  /** Changes the capacity (a restart may bring a new `dead_letter_size`); the oldest go first. */
  resize(capacity: number): void {
    this.#capacity = capacity;
    this.#trim();
  }

  /** Adds a letter (dead-lettered now unless it says when). */
  add(letter: Omit<DeadLetter, "dead_lettered_at"> & { dead_lettered_at?: string }): void {
    this.#total++;
    this.#letters.push({ ...letter, dead_lettered_at: letter.dead_lettered_at ?? new Date().toISOString() });
    this.#trim();
  }

  /** Letters held, oldest first. */
  list(): DeadLetter[] {
    return [...this.#letters];
  }

  /** Removes every letter; returns how many there were. */
  clear(): number {
    const count = this.#letters.length;
    this.#letters = [];
    return count;
  }

  /** Removes and returns the letters of these event ids (all letters without ids). */
  take(eventIds?: readonly string[]): DeadLetter[] {
    const wanted = eventIds ? new Set(eventIds) : undefined;
    const taken = this.#letters.filter((l) => !wanted || wanted.has(l.event.event_id));
    this.#letters = this.#letters.filter((l) => !taken.includes(l));
    return taken;
  }

  #trim(): void {
    const excess = this.#letters.length - this.#capacity;
    if (excess <= 0) return;
    for (const letter of this.#letters.splice(0, excess)) this.#onDrop?.(letter);
  }
}
