/**
 * An in-memory client for users' tests: it connects a real SDK client to the server through the
 * same protocol binding every transport uses, so calls run the full pipeline (auth, guards, limits,
 * middleware, serialisation). Headers stand in for the HTTP request that would carry each call.
 *
 * **Revisions.** `revision: "2025-11-25"` (the default) opens an `initialize` session with the SDK v1
 * `Client` over an in-memory pair; `revision: "2026-07-28"` speaks the stateless revision with the SDK v2
 * `Client`, whose HTTP requests go straight to {@linkcode toFetchHandler} (no socket). The answer
 * options (`onElicit`, `onSample`, `roots`) work on both: on a 2025 session they answer the server's
 * requests, on 2026-07-28 the client answers `input_required` results with them and retries the call.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { createTestClient, createToolServer } from "@agentry/agentry/mcp";
 *
 * const server = createToolServer({ name: "maths" });
 * server.tool("add", { input: z.object({ a: z.number(), b: z.number() }) }, ({ a, b }) => a + b);
 * await using client = await createTestClient(server);
 * const result = await client.callTool("add", { a: 2, b: 3 });
 * console.log(result.content); // [{ type: "text", text: "5" }]
 * ```
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
  type ClientCapabilities,
  type CreateMessageRequestParams,
  CreateMessageRequestSchema,
  type CreateMessageResult,
  type ElicitRequestFormParams,
  ElicitRequestSchema,
  type ElicitResult,
  type GetPromptResult,
  type JSONRPCMessage,
  ListRootsRequestSchema,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type Root,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { createSessionServer } from "./protocol.ts";
import type { ToolServer } from "./tool_server.ts";
import { type ModernClient, modernTestClient } from "./_modern_test_client.ts";

/** The MCP revisions {@linkcode createTestClient} speaks. */
export type TestRevision = "2025-11-25" | "2026-07-28";

/** Options for {@linkcode createTestClient}. */
export interface TestClientOptions {
  /**
   * Revision to speak: `2025-11-25` (an `initialize` session, SDK v1 client) or `2026-07-28`
   * (stateless requests through the HTTP handler in memory, SDK v2 client).
   * @default "2025-11-25"
   */
  revision?: TestRevision;
  /** Headers sent with every request (lower-cased by the client). @default {} */
  headers?: Record<string, string>;
  /** Shorthand for an `authorization: Bearer <token>` header. */
  token?: string;
  /** Client capabilities to declare (e.g. `{ elicitation: {} }`); the answer options add theirs. @default {} */
  capabilities?: ClientCapabilities;
  /** Declares `elicitation` and answers the server's form elicitations with this. */
  onElicit?: (params: ElicitRequestFormParams) => ElicitResult | Promise<ElicitResult>;
  /** Declares `sampling` and answers the server's sampling requests with this. */
  onSample?: (params: CreateMessageRequestParams) => CreateMessageResult | Promise<CreateMessageResult>;
  /** Declares `roots` and answers `roots/list` with these. */
  roots?: Root[];
}

/** Per-call options. */
export interface TestCallOptions {
  /** Headers for this call only, over the client's own. */
  headers?: Record<string, string>;
}

/** What a connected in-memory client offers on either revision. */
export interface TestClientCalls extends AsyncDisposable {
  /** The revision negotiated (e.g. `2025-11-25` or `2026-07-28`). */
  readonly protocolVersion: string;
  /** Calls a tool; failures come back as `isError` results. */
  callTool(name: string, args?: Record<string, unknown>, options?: TestCallOptions): Promise<CallToolResult>;
  /** Lists tools as this caller sees them. */
  listTools(options?: TestCallOptions): Promise<Tool[]>;
  /** Lists static resources. */
  listResources(options?: TestCallOptions): Promise<Resource[]>;
  /** Lists resource templates. */
  listResourceTemplates(options?: TestCallOptions): Promise<ResourceTemplate[]>;
  /** Reads a resource. */
  readResource(uri: string, options?: TestCallOptions): Promise<ReadResourceResult>;
  /** Lists prompts. */
  listPrompts(options?: TestCallOptions): Promise<Prompt[]>;
  /** Gets a prompt (arguments as strings, as on the wire). */
  getPrompt(name: string, args?: Record<string, string>, options?: TestCallOptions): Promise<GetPromptResult>;
  /** Disconnects. */
  close(): Promise<void>;
}

/** A connected in-memory client on a 2025-11-25 session. */
export interface TestClient extends TestClientCalls {
  /** The SDK v1 client, for anything the helpers don't cover (e.g. notification handlers). */
  readonly client: Client;
}

/** A connected in-memory client on 2026-07-28. */
export interface ModernTestClient extends TestClientCalls {
  /** The SDK v2 client (`@modelcontextprotocol/client`), for anything the helpers don't cover. */
  readonly client: ModernClient;
}

const HEADERS_META = "dev.agentry.test/headers";

function lower(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

/** The capabilities declared: `capabilities` plus those of the answer options given. */
function declared(options: TestClientOptions): ClientCapabilities {
  return {
    ...options.capabilities,
    ...(options.onElicit ? { elicitation: options.capabilities?.elicitation ?? {} } : {}),
    ...(options.onSample ? { sampling: options.capabilities?.sampling ?? {} } : {}),
    ...(options.roots ? { roots: options.capabilities?.roots ?? {} } : {}),
  };
}

/** Moves the per-call headers from `_meta` into `requestInfo`, as an HTTP transport would. */
function headerBridge(inner: Transport, base: Record<string, string>): Transport {
  let handler: Transport["onmessage"];
  inner.onmessage = (message: JSONRPCMessage, extra) => {
    let headers = base;
    const params = (message as { params?: { _meta?: Record<string, unknown> } }).params;
    const extraHeaders = params?._meta?.[HEADERS_META];
    if (params?._meta && extraHeaders !== undefined) {
      headers = { ...base, ...(extraHeaders as Record<string, string>) };
      delete params._meta[HEADERS_META];
    }
    handler?.(message, { ...extra, requestInfo: { headers } });
  };
  return new Proxy(inner, {
    set(target, key, value) {
      if (key === "onmessage") {
        handler = value;
        return true;
      }
      return Reflect.set(target, key, value);
    },
    get(target, key) {
      if (key === "onmessage") return handler;
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function answer(client: Client, options: TestClientOptions): void {
  const { onElicit, onSample, roots } = options;
  if (onElicit) {
    client.setRequestHandler(
      ElicitRequestSchema,
      (request) => onElicit(request.params as ElicitRequestFormParams),
    );
  }
  if (onSample) client.setRequestHandler(CreateMessageRequestSchema, (request) => onSample(request.params));
  if (roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots }));
}

async function legacyTestClient(
  server: ToolServer,
  base: Record<string, string>,
  options: TestClientOptions,
): Promise<TestClient> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  let protocolVersion = "";
  Object.assign(clientSide, { setProtocolVersion: (version: string) => void (protocolVersion = version) });
  const session = createSessionServer(server);
  await session.connect(headerBridge(serverSide, base));
  const client = new Client({ name: "agentry-test-client", version: "0.1.0" }, {
    capabilities: declared(options),
  });
  answer(client, options);
  await client.connect(clientSide);
  const meta = (call?: TestCallOptions) =>
    call?.headers ? { _meta: { [HEADERS_META]: lower(call.headers) } } : {};
  const close = async () => {
    await client.close();
    await session.close();
  };
  return {
    client,
    get protocolVersion() {
      return protocolVersion;
    },
    callTool: async (name, args = {}, call) =>
      await client.callTool({ name, arguments: args, ...meta(call) }) as CallToolResult,
    listTools: async (call) => (await client.listTools({ ...meta(call) })).tools,
    listResources: async (call) => (await client.listResources({ ...meta(call) })).resources,
    listResourceTemplates: async (call) =>
      (await client.listResourceTemplates({ ...meta(call) })).resourceTemplates,
    readResource: (uri, call) => client.readResource({ uri, ...meta(call) }),
    listPrompts: async (call) => (await client.listPrompts({ ...meta(call) })).prompts,
    getPrompt: (name, args = {}, call) => client.getPrompt({ name, arguments: args, ...meta(call) }),
    close,
    [Symbol.asyncDispose]: close,
  };
}

/**
 * Connects an in-memory client to `server` (runs the approval invariant check first), on a 2025-11-25
 * session unless `options.revision` asks for 2026-07-28.
 */
export function createTestClient(
  server: ToolServer,
  options?: TestClientOptions & { revision?: "2025-11-25" },
): Promise<TestClient>;
/** Connects an in-memory client to `server` speaking 2026-07-28 (stateless, SDK v2 client). */
export function createTestClient(
  server: ToolServer,
  options: TestClientOptions & { revision: "2026-07-28" },
): Promise<ModernTestClient>;
/** Connects an in-memory client to `server` on the revision `options.revision` names. */
export function createTestClient(
  server: ToolServer,
  options?: TestClientOptions,
): Promise<TestClient | ModernTestClient>;
export async function createTestClient(
  server: ToolServer,
  options: TestClientOptions = {},
): Promise<TestClient | ModernTestClient> {
  server.assertReady();
  const base = lower({
    ...(options.headers ?? {}),
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
  });
  const revision = options.revision ?? "2025-11-25";
  if (revision === "2026-07-28") {
    return await modernTestClient(server, { ...options, headers: base, capabilities: declared(options) });
  }
  if (revision !== "2025-11-25") {
    throw new TypeError(`revision: "2025-11-25" or "2026-07-28", got ${revision}`);
  }
  return await legacyTestClient(server, base, options);
}
