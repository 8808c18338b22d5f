/**
 * The bounded queue used by triggers (shared with the runtime's process queue).
 *
 * @module
 */

export { BoundedQueue, QueueAbortedError } from "../_util/bounded_queue.ts";
