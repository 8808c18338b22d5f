/**
 * Answer and body types of the dead-letter routes: events a process gave up on, kept for inspection and
 * redelivery (across restarts, newest `trigger_delivery.dead_letter_size`).
 *
 * @module
 */

import type { DeadLetter } from "../runtime/mod.ts";

/** `GET /processes/{name}/dead-letters`. */
export interface DeadLettersAnswer {
  /** Process name. */
  name: string;
  /** Letters held, oldest first: `{event, reason, error, attempts, dead_lettered_at}`. */
  dead_letters: DeadLetter[];
  /** Letters held (the length of `dead_letters`). */
  count: number;
  /**
   * Letters added since the process was deployed or loaded by this runtime, including those dropped to
   * keep `dead_letter_size` (after a runtime restart it counts from the letters recovered).
   */
  total: number;
}

/** Body of `POST /processes/{name}/dead-letters/redeliver`. */
export interface RedeliverBody {
  /** Event ids to redeliver; all letters when missing. Unknown ids are skipped. */
  event_ids?: string[];
}

/** `POST /processes/{name}/dead-letters/redeliver`. */
export interface RedeliveredAnswer {
  /** Process name. */
  name: string;
  /** Events accepted again and queued (written to the `events` log before the answer). */
  redelivered: number;
}

/** `DELETE /processes/{name}/dead-letters`. */
export interface DeadLettersClearedAnswer {
  /** Process name. */
  name: string;
  /** Letters removed (from the `events` log too). */
  dead_letters_cleared: number;
}
