/**
 * What a round that ended `input_required` asked of its client, in the shape logs, webhooks and the
 * audit chain record: the pending keys and their methods, never the requests' params or the answers.
 *
 * @module
 */

import type { InputRequiredSignal, PendingInput } from "../input_required.ts";

/** The pending requests of `signal` as `{ key: method }`, keys sorted (e.g. `{ e1: "elicitation/create" }`). */
export function pendingMethods(signal: InputRequiredSignal): Record<string, PendingInput["method"]> {
  const keys = Object.keys(signal.requests).sort();
  return Object.fromEntries(keys.map((key) => [key, signal.requests[key].method]));
}
