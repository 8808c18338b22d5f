/**
 * The modern binding's side of input_required: one call of `tools/call`, `prompts/get` or
 * `resources/read` on a 2026-07-28 request, run with the input its request carries (see
 * {@linkcode answerWithRounds}). The request's `requestState` must reach the handler as the client
 * sent it: the binding's SDK `Server` has no `requestState.verify` hook, the state is verified here.
 *
 * @module
 */

import type { InputRequiredResult, ServerContext } from "@modelcontextprotocol/server";
import { isAuthMiddleware } from "../auth/auth_middleware.ts";
import { internalsOf, type ToolServer } from "../tool_server.ts";
import { answerWithRounds } from "./answer_with_rounds.ts";
import type { InputRounds } from "./input_rounds.ts";

const CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";

/** The call a round runs. */
export interface RoundTarget {
  /** `tools/call`, `prompts/get` or `resources/read`. */
  method: "tools/call" | "prompts/get" | "resources/read";
  /** The tool or prompt name, or the resource URI. */
  name: string;
  /** The call's arguments, as the request carried them. */
  args?: unknown;
  /** Lower-cased headers of the carrying HTTP request (empty on stdio). */
  meta: Readonly<Record<string, string>>;
}

/**
 * The credential a request carried (the `authorization` header and the headers the server's auth
 * providers read), which a state is bound to: a state minted for one caller is refused for another.
 */
export function credentialOf(server: ToolServer, meta: Readonly<Record<string, string>>): string | undefined {
  const headers = new Set(["authorization"]);
  for (const middleware of server.middleware) {
    if (isAuthMiddleware(middleware)) headers.add(middleware.provider.header.toLowerCase());
  }
  const carried = [...headers].sort().filter((name) => meta[name]).map((name) => `${name}: ${meta[name]}`);
  return carried.length === 0 ? undefined : carried.join("\n");
}

function record(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;
}

/**
 * `call`'s result, given the {@linkcode InputRounds} of the request `ctx`, or the `input_required`
 * result when the call is waiting for input. A bad `requestState` rejects with JSON-RPC `-32602`.
 */
export function withInputRounds<R>(
  server: ToolServer,
  ctx: ServerContext,
  target: RoundTarget,
  call: (rounds: InputRounds) => Promise<R>,
): Promise<R | InputRequiredResult> {
  const envelope = record(ctx.mcpReq.envelope);
  return answerWithRounds(internalsOf(server).requestStates, {
    method: target.method,
    name: target.name,
    args: target.args ?? {},
    // Worked out only when a state is opened or sealed, not on every call.
    get subject() {
      return credentialOf(server, target.meta);
    },
    inputResponses: ctx.mcpReq.inputResponses,
    requestState: ctx.mcpReq.requestState(),
    capabilities: record(envelope?.[CLIENT_CAPABILITIES]),
  }, call);
}
