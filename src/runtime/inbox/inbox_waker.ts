/**
 * `inbox.wake` (ours): a message or question arriving while the process is started queues one `inbox`
 * event, so the process runs without waiting for a trigger. Messages arriving before that run begins share it.
 *
 * @module
 */

import { uuid } from "../../_util/ids.ts";
import type { ProcessEvent } from "../process_event.ts";

/** What the waker needs of its process. */
export interface WakeHost {
  /** Whether `inbox.wake` is on and the process is started. */
  awake(): boolean;
  /** Queues the event without waiting (dead-lettered when the queue is full). */
  inject(event: ProcessEvent): void;
}

/** Queues at most one waiting `inbox` event at a time. */
export class InboxWaker {
  #host: WakeHost;
  #queued = false;

  /** A waker for `host`. */
  constructor(host: WakeHost) {
    this.#host = host;
  }

  /** A message (`type` says which kind) arrived: queue an `inbox` event unless one already waits. */
  wake(messageId: string, type: string): void {
    if (this.#queued || !this.#host.awake()) return;
    this.#queued = true;
    this.#host.inject({
      trigger_id: "inbox",
      trigger_type: "inbox",
      event_id: uuid(),
      timestamp: new Date().toISOString(),
      payload: {
        reason: type === "question" ? "operator question" : "operator message",
        message_id: messageId,
      },
      metadata: {},
    });
  }

  /** A run begins: it will see what the inbox holds, so the next arrival may wake again. */
  runBegins(): void {
    this.#queued = false;
  }
}
