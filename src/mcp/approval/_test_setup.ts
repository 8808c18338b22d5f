/**
 * Test helpers for the approval end-to-end tests: a server with API-key auth and an approval gate,
 * SDK clients connected through the real protocol binding, each with its own API key.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  type CallToolResult,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { authMiddleware } from "../auth/auth_middleware.ts";
import { ApiKeyAuth } from "../auth/api_key_auth.ts";
import { createSessionServer } from "../protocol.ts";
import { ToolServer } from "../tool_server.ts";
import { Logger, memorySink } from "../../log.ts";
import type { Middleware } from "../types.ts";

/** alice and carol may call tools; bob may also review approvals. */
export const API_KEYS = {
  "k-alice": { client_id: "alice", roles: [] },
  "k-bob": { client_id: "bob", roles: ["approver"] },
  "k-carol": { client_id: "carol", roles: [] },
};

/** A server with auth, `gate`, and a gated `transfer` tool that answers "sent <amount>". */
export function gatedServer(gate: Middleware): ToolServer {
  return gatedServerWith([gate]);
}

/** A bank server running `outer`, the API-key auth, then `inner`, with the gated `transfer` tool. */
export function gatedServerWith(inner: Middleware[], outer: Middleware[] = []): ToolServer {
  const server = new ToolServer({ name: "bank", logger: new Logger("test", { sink: memorySink() }) });
  server.use(...outer, authMiddleware(new ApiKeyAuth({ keys: API_KEYS })), ...inner);
  server.tool("transfer", {
    auth: true,
    requiresApproval: true,
    destructiveHint: true,
    input: z.object({ amount: z.number() }),
  }, ({ amount }) => `sent ${amount}`);
  return server;
}

/** Makes every message arriving on `transport` look as if it came with `headers`. */
function withHeaders(transport: Transport, headers: Record<string, string>): Transport {
  let wrapped: Transport["onmessage"];
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    get: () => wrapped,
    set(handler: Transport["onmessage"]) {
      wrapped = handler && ((message, extra) => handler(message, { ...extra, requestInfo: { headers } }));
    },
  });
  return transport;
}

/** Options for {@linkcode connect}. */
export interface ConnectOptions {
  /** The API key sent with every request. */
  apiKey?: string;
  /** Declares elicitation support and answers `elicitation/create` with this. */
  onElicit?: (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>;
}

/** A connected SDK client and its closer. */
export interface Connected extends AsyncDisposable {
  /** The SDK client. */
  client: Client;
  /** Calls a tool. */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
}

/** Connects an SDK client to `server` through an in-memory pair. */
export async function connect(server: ToolServer, options: ConnectOptions = {}): Promise<Connected> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const session = createSessionServer(server);
  await session.connect(withHeaders(serverSide, options.apiKey ? { "x-api-key": options.apiKey } : {}));
  const client = new Client({ name: "approval-test", version: "0.1.0" }, {
    capabilities: options.onElicit ? { elicitation: {} } : {},
  });
  const onElicit = options.onElicit;
  if (onElicit) client.setRequestHandler(ElicitRequestSchema, (request) => onElicit(request));
  await client.connect(clientSide);
  return {
    client,
    call: async (name, args = {}) => await client.callTool({ name, arguments: args }) as CallToolResult,
    async [Symbol.asyncDispose]() {
      await client.close();
      await session.close();
    },
  };
}

/** The text of a result's first block. */
export function textOf(result: CallToolResult): string {
  const block = result.content[0];
  if (block?.type !== "text") throw new Error("expected a text block");
  return block.text;
}

/** The error envelope of a failed result. */
export function errorOf(
  result: CallToolResult,
): { code: string; message: string; suggestion?: string; details?: Record<string, unknown> } {
  if (result.isError !== true) throw new Error(`expected an error result, got ${textOf(result)}`);
  return JSON.parse(textOf(result)).error;
}

/** Polls `condition` on the real event loop (at most ~2 s). */
export async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  if (!condition()) throw new Error("condition not reached");
}
