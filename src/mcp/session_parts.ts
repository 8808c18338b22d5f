/**
 * What the 2025-era and 2026-07-28 call sessions share: the client capability each client request
 * needs, the tool errors for a request the client cannot answer, and the progress notification for a
 * request's progress token.
 *
 * @module
 */

import { ToolError } from "./errors.ts";
import type { ClientMethod } from "./types.ts";

/** The client capability (by its name in `capabilities`) each client request needs. */
export const CLIENT_CAPABILITY = {
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
  "roots/list": "roots",
} as const satisfies Record<ClientMethod, string>;

/** Where the client declares its capabilities, as the suggestion of {@linkcode missingCapability} names it. */
export type CapabilityPlace = "initialize" | "envelope";

/**
 * The tool error `MISSING_CLIENT_CAPABILITY` for a call that asks `method` of a client that did not
 * declare its capability (a client that never declared it might never answer), naming the capability;
 * `place` says where the client declares it (`initialize` on 2025-era sessions, the request's `_meta`
 * envelope on 2026-07-28).
 */
export function missingCapability(method: ClientMethod, place: CapabilityPlace): ToolError {
  const capability = CLIENT_CAPABILITY[method];
  const where = place === "initialize"
    ? "in the client's initialize capabilities"
    : `in the request's _meta "io.modelcontextprotocol/clientCapabilities"`;
  return new ToolError(
    "MISSING_CLIENT_CAPABILITY",
    `The client did not declare the ${capability} capability`,
    {
      suggestion: `Declare ${capability} ${where} to answer ${method}`,
      details: { required_capability: capability, method },
    },
  );
}

/**
 * The tool error `LIVE_SESSION_REQUIRED` for a call that asks `method` where the server cannot send
 * requests to the client (stateless 2025-era HTTP).
 */
export function liveSessionRequired(method: ClientMethod): ToolError {
  return new ToolError(
    "LIVE_SESSION_REQUIRED",
    `${method} needs a live session, and this server answers 2025-era HTTP statelessly`,
    {
      suggestion:
        "Call over the 2026-07-28 revision (which asks through input_required rounds) or a stateful session",
      details: { method },
    },
  );
}

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
