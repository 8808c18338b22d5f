/**
 * One `tools/call` on a server's current session, its failures turned into error outcomes.
 *
 * @module
 */

import type { Session } from "./_session.ts";
import { callFailure } from "./_session_watch.ts";
import { type ToolOutcome, toolOutcome } from "./tool_outcome.ts";

/** What {@linkcode callOnSession} needs besides the call. */
export interface LinkCallOptions {
  /** The server's name, for messages. */
  server: string;
  /** The call's timeout. */
  timeoutMs: number;
  /** The caller's signal. */
  signal?: AbortSignal;
}

/** A call's outcome, or the failure that means the connection is gone (the caller reconnects). */
export type LinkCallResult = { outcome: ToolOutcome } | { lost: unknown };

/**
 * Calls `tool` on `session`: its outcome (an error outcome for a failure that leaves the session
 * usable), or `lost` with the failure that ended the connection. Rejects only when `signal` aborts.
 */
export async function callOnSession(
  session: Session,
  call: { tool: string; args: Record<string, unknown> },
  options: LinkCallOptions,
): Promise<LinkCallResult> {
  const { signal, server, timeoutMs } = options;
  // The SDK never removes the abort listener it adds to the signal it is given: give it a signal of
  // this call only, so the caller's (often a run's, with a timeout) is not kept alive by it.
  const own = new AbortController();
  const forward = () => own.abort(signal?.reason);
  signal?.addEventListener("abort", forward, { once: true });
  try {
    const result = await session.client.callTool({ name: call.tool, arguments: call.args }, {
      signal: own.signal,
      timeout: timeoutMs,
    });
    return { outcome: toolOutcome(result) };
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    const outcome = callFailure(error, { server, tool: call.tool, timeoutMs });
    return outcome === undefined ? { lost: error } : { outcome };
  } finally {
    signal?.removeEventListener("abort", forward);
  }
}
