/**
 * What the 2025-era and 2026-07-28 call sessions share: the client capability each client request
 * needs, and the progress notification for a request's progress token.
 *
 * @module
 */

import type { ClientMethod } from "./types.ts";

/** The client capability (by its name in `capabilities`) each client request needs. */
export const CLIENT_CAPABILITY = {
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
  "roots/list": "roots",
} as const satisfies Record<ClientMethod, string>;

/** A `notifications/progress` for `progressToken`, without the fields that are not given. */
export function progressNotification(
  progressToken: string | number,
  progress: number,
  options: { total?: number; message?: string } = {},
): {
  method: "notifications/progress";
  params: { progressToken: string | number; progress: number; total?: number; message?: string };
} {
  const { total, message } = options;
  return {
    method: "notifications/progress",
    params: {
      progressToken,
      progress,
      ...(total === undefined ? {} : { total }),
      ...(message === undefined ? {} : { message }),
    },
  };
}
