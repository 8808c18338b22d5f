/**
 * The {@linkcode CallSession} of one 2026-07-28 request: what the client declared travels in the
 * request's `_meta` envelope, progress goes to the request's progress token, log messages pass at
 * the level the envelope asks for (none without one). There is no server-to-client request channel
 * on this revision: elicitation, sampling and roots ride on `input_required` results.
 *
 * @module
 */

import type { ClientCapabilities, ServerContext } from "@modelcontextprotocol/server";
import { CLIENT_CAPABILITY, progressNotification } from "../session_parts.ts";
import type { CallSession, ClientMethod } from "../types.ts";

const CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";

/** The client capabilities a modern request declared in its `_meta` envelope. */
export function declaredCapabilities(ctx: ServerContext): ClientCapabilities {
  const envelope = ctx.mcpReq.envelope as Readonly<Record<string, unknown>> | undefined;
  const declared = envelope?.[CLIENT_CAPABILITIES];
  return (declared ?? {}) as ClientCapabilities;
}

/** Whether the request's client declared the capability `method` needs. */
export function declares(ctx: ServerContext, method: ClientMethod): boolean {
  return declaredCapabilities(ctx)[CLIENT_CAPABILITY[method]] !== undefined;
}

/**
 * The answer to a client request (`elicit`, `sample`, `listRoots`) outside `tools/call`,
 * `prompts/get` and `resources/read` (whose sessions ask through input_required rounds, see
 * `sessionWithRounds`): a clear refusal naming the revision.
 */
function noInputRounds(method: ClientMethod): Promise<never> {
  return Promise.reject(
    new Error(
      `${method} is not available on this 2026-07-28 request (only tool calls, prompts and reads ask)`,
    ),
  );
}

/** The call session for the modern request `ctx`. */
export function modernSession(ctx: ServerContext): CallSession {
  return {
    era: "modern",
    live: false,
    supports: (method) => declares(ctx, method),
    async progress(progress, total, message) {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      if (progressToken === undefined) return;
      await ctx.mcpReq.notify(progressNotification(progressToken, progress, { total, message }));
    },
    // The SDK filters by the envelope's log level on this revision (nothing without one).
    log: (level, data, logger) => ctx.mcpReq.log(level, data, logger),
    elicit: () => noInputRounds("elicitation/create"),
    sample: () => noInputRounds("sampling/createMessage"),
    listRoots: () => noInputRounds("roots/list"),
  };
}
