/**
 * Binds a {@linkcode ToolServer} to one protocol session: an SDK `Server` whose request handlers
 * run the server's pipeline. Every transport (stdio, streamable HTTP, SSE, the test client) connects
 * through here, so all of them serve the same behaviour.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/server/index"
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="@modelcontextprotocol/sdk/shared/protocol"
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  CreateMessageResultSchema,
  ElicitResultSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListRootsResultSchema,
  ListToolsRequestSchema,
  type LoggingLevel,
  LoggingLevelSchema,
  ReadResourceRequestSchema,
  type ServerNotification,
  type ServerRequest,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { ToolError } from "./errors.ts";
import type { CallInfo } from "./pipeline.ts";
import * as requests from "./requests.ts";
import {
  CLIENT_CAPABILITY,
  liveSessionRequired,
  missingCapability,
  progressNotification,
} from "./session_parts.ts";
import { internalsOf, type ToolServer } from "./tool_server.ts";
import type { CallSession, ClientMethod } from "./types.ts";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Options for {@linkcode createSessionServer}. */
export interface SessionOptions {
  /** Whether the server may send requests to the client (false for stateless HTTP). @default true */
  live?: boolean;
}

const SEVERITY = new Map<LoggingLevel, number>(
  LoggingLevelSchema.options.map((level, index) => [level, index]),
);
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The carrying request's headers. Every transport here (web-standard streamable HTTP, our SSE
 * transport, the test client) passes a record of lower-cased names to single string values, so it is
 * used as it is.
 */
function headersOf(extra: Extra): Readonly<Record<string, string>> {
  return (extra.requestInfo?.headers as Record<string, string> | undefined) ?? NO_HEADERS;
}

/** An SDK server for one session of `server`; connect it to a transport. */
export function createSessionServer(server: ToolServer, options: SessionOptions = {}): Server {
  const live = options.live ?? true;
  const sdk = new Server({ name: server.name, version: server.version }, {
    capabilities: {
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      logging: {},
      completions: {},
    },
    instructions: server.instructions,
  });
  let minLevel = SEVERITY.get("debug")!;
  const subscriptions = new Set<string>();

  function session(extra: Extra): CallSession {
    /** The tool error for `method` when the session cannot carry it or the client did not declare it. */
    function refusal(method: ClientMethod): ToolError | undefined {
      if (!live) return liveSessionRequired(method);
      // A client that did not declare the capability is not asked (it might never answer).
      if (sdk.getClientCapabilities()?.[CLIENT_CAPABILITY[method]] === undefined) {
        return missingCapability(method, "initialize");
      }
      return undefined;
    }

    return {
      id: extra.sessionId,
      era: "legacy",
      live,
      supports(method) {
        return live && sdk.getClientCapabilities()?.[CLIENT_CAPABILITY[method]] !== undefined;
      },
      async progress(progress, total, message) {
        const progressToken = extra._meta?.progressToken;
        if (progressToken === undefined) return;
        await extra.sendNotification(progressNotification(progressToken, progress, { total, message }));
      },
      async log(level, data, logger) {
        if ((SEVERITY.get(level) ?? 0) < minLevel) return;
        await extra.sendNotification({ method: "notifications/message", params: { level, data, logger } });
      },
      elicit(params, requestOptions = {}) {
        const refused = refusal("elicitation/create");
        if (refused) return Promise.reject(refused);
        return extra.sendRequest({ method: "elicitation/create", params }, ElicitResultSchema, {
          timeout: requestOptions.timeoutMs ?? 60_000,
        });
      },
      sample(params, requestOptions = {}) {
        const refused = refusal("sampling/createMessage");
        if (refused) return Promise.reject(refused);
        return extra.sendRequest({ method: "sampling/createMessage", params }, CreateMessageResultSchema, {
          timeout: requestOptions.timeoutMs ?? 60_000,
        });
      },
      listRoots(requestOptions = {}) {
        const refused = refusal("roots/list");
        if (refused) return Promise.reject(refused);
        return extra.sendRequest({ method: "roots/list" }, ListRootsResultSchema, {
          timeout: requestOptions.timeoutMs ?? 60_000,
        });
      },
    };
  }

  const info = (extra: Extra): CallInfo => ({
    meta: headersOf(extra),
    session: session(extra),
    signal: extra.signal,
    ipAddress: typeof extra.authInfo?.extra?.ipAddress === "string"
      ? extra.authInfo.extra.ipAddress
      : undefined,
  });

  sdk.setRequestHandler(SetLevelRequestSchema, (request) => {
    minLevel = SEVERITY.get(request.params.level) ?? minLevel;
    return {};
  });
  sdk.setRequestHandler(ListToolsRequestSchema, (_r, extra) => requests.listTools(server, info(extra)));
  sdk.setRequestHandler(
    CallToolRequestSchema,
    (request, extra) => requests.callTool(server, request.params.name, request.params.arguments, info(extra)),
  );
  sdk.setRequestHandler(
    ListResourcesRequestSchema,
    (_r, extra) => requests.listResources(server, info(extra)),
  );
  sdk.setRequestHandler(
    ListResourceTemplatesRequestSchema,
    (_r, extra) => requests.listResourceTemplates(server, info(extra)),
  );
  sdk.setRequestHandler(
    ReadResourceRequestSchema,
    (request, extra) => requests.readResource(server, request.params.uri, info(extra)),
  );
  sdk.setRequestHandler(SubscribeRequestSchema, (request) => {
    subscriptions.add(request.params.uri);
    return {};
  });
  sdk.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscriptions.delete(request.params.uri);
    return {};
  });
  sdk.setRequestHandler(ListPromptsRequestSchema, (_r, extra) => requests.listPrompts(server, info(extra)));
  sdk.setRequestHandler(
    GetPromptRequestSchema,
    (request, extra) =>
      requests.getPrompt(server, request.params.name, request.params.arguments, info(extra)),
  );
  sdk.setRequestHandler(
    CompleteRequestSchema,
    (request, extra) => requests.complete(server, request.params, info(extra)),
  );

  const detach = internalsOf(server).registry.attach({
    async listChanged(kind) {
      if (kind === "tools") await sdk.sendToolListChanged();
      else if (kind === "resources") await sdk.sendResourceListChanged();
      else await sdk.sendPromptListChanged();
    },
    async resourceUpdated(uri) {
      if (!subscriptions.has(uri)) return false;
      await sdk.sendResourceUpdated({ uri });
      return true;
    },
  });
  const previous = sdk.onclose;
  sdk.onclose = () => {
    detach();
    previous?.();
  };
  return sdk;
}
