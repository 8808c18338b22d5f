/**
 * The inbox of one process as the process holds it: built when `inbox.enabled`, with its `inbox.wake`
 * waker, and arrivals told to the process's hooks (`message_received`).
 *
 * @module
 */

import type { Logger } from "../../log.ts";
import type { ProcessConfig } from "../config/mod.ts";
import { type ProcessState, STARTED_STATES } from "../lifecycle.ts";
import type { ProcessEvent } from "../process_event.ts";
import type { ProcessHooks } from "../hooks/process_hooks.ts";
import { Inbox } from "./inbox.ts";
import { InboxWaker } from "./inbox_waker.ts";

/** What {@linkcode processInbox} needs of its process. */
export interface InboxProcess {
  /** Process name. */
  name: string;
  /** The config as deployed. */
  config(): ProcessConfig;
  /** The process state. */
  state(): ProcessState;
  /** Logger. */
  logger: Logger;
  /** The hooks of the current start. */
  hooks(): ProcessHooks;
  /** Queues an event without waiting. */
  inject(event: ProcessEvent): void;
}

/** The inbox (undefined unless `inbox.enabled`) and the waker of a process. */
export function processInbox(process: InboxProcess): { inbox: Inbox | undefined; waker: InboxWaker } {
  const waker = new InboxWaker({
    awake: () => process.config().inbox.wake && STARTED_STATES.has(process.state()),
    inject: (event) => process.inject(event),
  });
  if (!process.config().inbox.enabled) return { inbox: undefined, waker };
  const inbox = new Inbox({
    process: process.name,
    config: () => process.config(),
    state: () => process.state(),
    logger: process.logger,
    onArrival: (item) => {
      process.hooks().emit("message_received", { ...item });
      waker.wake(item.message_id, item.message_type);
    },
  });
  return { inbox, waker };
}
