/**
 * Binds a {@linkcode ToolServer} to one 2026-07-28 request: an SDK v2 `Server` whose handlers answer
 * through `requests.ts`, so the modern leg runs the same pipeline, middleware, auth, guards, approval
 * and audit as 2025-era sessions. A fresh instance serves each request (the revision is stateless);
 * `server/discover` and `subscriptions/listen` are answered by the SDK and its serving entry.
 *
 * Errors `requests.ts` throws (JSON-RPC `McpError`s) reach the client with the same code, message and
 * data as on a 2025-era session.
 *
 * The SDK server is wrapped in an `McpServer` that registers nothing of its own: the HTTP entry asks an
 * `McpServer` for a tool's input schema to validate `Mcp-Param-*` headers (SEP-2243) before dispatch,
 * and {@linkcode BoundMcpServer} answers from the tool server's registry.
 *
 * @module
 */

import { type AuthInfo, McpServer, type ServerContext } from "@modelcontextprotocol/server";
import type { CallInfo } from "../pipeline.ts";
import * as requests from "../requests.ts";
import { internalsOf, type ToolServer } from "../tool_server.ts";
import type { CallSession } from "../types.ts";
import { bindTasks, callToolWithTask, TASKS_CAPABILITY } from "../tasks/mod.ts";
import { cacheHints } from "./cache_hints.ts";
import { toProtocolError } from "./errors.ts";
import { type InputRounds, sessionWithRounds } from "./input_rounds.ts";
import { declaredCapabilities, modernSession } from "./modern_session.ts";
import { type RoundTarget, withInputRounds } from "./with_input_rounds.ts";

/** Options for {@linkcode createModernServer}. */
export interface ModernServerOptions {
  /** Builds the call session of a request. @default {@linkcode modernSession} */
  session?: (ctx: ServerContext) => CallSession;
  /**
   * The one method the instance will answer, when the caller knows it (the HTTP entry has checked the
   * request's `Mcp-Method` header against its body): only that method's handler is registered. Any
   * other value, or none, registers them all. Capabilities are declared in full either way.
   */
  method?: string;
}

/** The methods this binding registers handlers for (besides the SDK's own). */
const BOUND_METHODS: ReadonlySet<string> = new Set([
  "tools/list",
  "tools/call",
  "tasks/get",
  "tasks/update",
  "tasks/cancel",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "prompts/list",
  "prompts/get",
  "completion/complete",
]);

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The request's headers as a record of lower-cased names (empty off HTTP). `forEach` rather than
 * `Object.fromEntries(headers.entries())`: Deno's header iterator costs several times more.
 */
function headersOf(ctx: ServerContext): Readonly<Record<string, string>> {
  const request = ctx.http?.req;
  if (!request) return NO_HEADERS;
  const record: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

function ipAddressOf(authInfo: AuthInfo | undefined): string | undefined {
  const address = authInfo?.extra?.ipAddress;
  return typeof address === "string" ? address : undefined;
}

/** The request's facts as the pipeline takes them. */
export function callInfo(ctx: ServerContext, session: CallSession): CallInfo {
  return {
    meta: headersOf(ctx),
    session,
    signal: ctx.mcpReq.signal,
    ipAddress: ipAddressOf(ctx.http?.authInfo),
  };
}

/**
 * Runs `answer`, turning a thrown JSON-RPC error into the SDK's error with the same code, message and
 * data. The result is SDK v1's shape of the same wire value, typed here as v2's (the two packages
 * describe one JSON with different TypeScript types).
 */
async function mapped<R>(answer: () => Promise<unknown>): Promise<R> {
  try {
    return await answer() as R;
  } catch (error) {
    throw toProtocolError(error);
  }
}

/** An `McpServer` whose tools are the tool server's (for the HTTP entry's header checks). */
export class BoundMcpServer extends McpServer {
  readonly #tools: ToolServer;

  /** An empty `McpServer` named after `tools`, answering tool input schemas from its registry. */
  constructor(tools: ToolServer) {
    super({ name: tools.name, version: tools.version }, {
      instructions: tools.instructions,
      cacheHints: cacheHints(tools),
    });
    this.#tools = tools;
  }

  /** The JSON Schema `tools/list` advertises for `name`, or undefined for an unknown tool. */
  override toolInputSchemaJson(name: string): Record<string, unknown> | undefined {
    return internalsOf(this.#tools).registry.tools.get(name)?.input.jsonSchema as
      | Record<string, unknown>
      | undefined;
  }
}

/** An SDK v2 server answering one 2026-07-28 request for `server`. */
export function createModernServer(server: ToolServer, options: ModernServerOptions = {}): McpServer {
  const sessionOf = options.session ?? modernSession;
  const mcp = new BoundMcpServer(server);
  const sdk = mcp.server;
  sdk.registerCapabilities({
    tools: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
    logging: {},
    completions: {},
    extensions: { ...TASKS_CAPABILITY },
  });
  // A per-request instance answers one method: registering the other handlers is wasted work.
  const only = options.method !== undefined && BOUND_METHODS.has(options.method) ? options.method : undefined;
  const wants = (method: string) => only === undefined || only === method;
  const info = (ctx: ServerContext) => callInfo(ctx, sessionOf(ctx));
  // tools/call, prompts/get and resources/read ask their client through input_required rounds.
  const asking = <R>(
    ctx: ServerContext,
    target: Omit<RoundTarget, "meta">,
    answer: (info: CallInfo) => Promise<unknown>,
  ) =>
    mapped<R>(() => {
      const base = info(ctx);
      return withInputRounds(server, ctx, { ...target, meta: base.meta }, (rounds: InputRounds) =>
        answer({ ...base, session: sessionWithRounds(base.session, rounds) }));
    });

  if (wants("tools/list")) {
    sdk.setRequestHandler("tools/list", (_r, ctx) => mapped(() => requests.listTools(server, info(ctx))));
  }
  if (wants("tools/call")) {
    sdk.setRequestHandler("tools/call", (request, ctx) => {
      const { name, arguments: args } = request.params;
      return asking(
        ctx,
        { method: "tools/call", name, args },
        (at) => callToolWithTask(server, name, args, { ...at, capabilities: declaredCapabilities(ctx) }),
      );
    });
  }
  if (only === undefined || only.startsWith("tasks/")) {
    bindTasks(sdk, server, (ctx) => ({ ...info(ctx), capabilities: declaredCapabilities(ctx) }));
  }
  if (wants("resources/list")) {
    sdk.setRequestHandler(
      "resources/list",
      (_r, ctx) => mapped(() => requests.listResources(server, info(ctx))),
    );
  }
  if (wants("resources/templates/list")) {
    sdk.setRequestHandler(
      "resources/templates/list",
      (_r, ctx) => mapped(() => requests.listResourceTemplates(server, info(ctx))),
    );
  }
  if (wants("resources/read")) {
    sdk.setRequestHandler("resources/read", (request, ctx) => {
      const { uri } = request.params;
      return asking(
        ctx,
        { method: "resources/read", name: uri },
        (at) => requests.readResource(server, uri, at),
      );
    });
  }
  if (wants("prompts/list")) {
    sdk.setRequestHandler("prompts/list", (_r, ctx) => mapped(() => requests.listPrompts(server, info(ctx))));
  }
  if (wants("prompts/get")) {
    sdk.setRequestHandler("prompts/get", (request, ctx) => {
      const { name, arguments: args } = request.params;
      return asking(
        ctx,
        { method: "prompts/get", name, args },
        (at) => requests.getPrompt(server, name, args, at),
      );
    });
  }
  if (wants("completion/complete")) {
    sdk.setRequestHandler(
      "completion/complete",
      (request, ctx) => mapped(() => requests.complete(server, request.params, info(ctx))),
    );
  }
  return mcp;
}
