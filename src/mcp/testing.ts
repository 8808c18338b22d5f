/**
 * An in-memory client for users' tests: it connects a real SDK client to the server through the
 * same protocol binding every transport uses, so calls run the full pipeline (auth, guards, limits,
 * middleware, serialisation). Headers stand in for the HTTP request that would carry each call.
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
import type {
  CallToolResult,
  ClientCapabilities,
  GetPromptResult,
  JSONRPCMessage,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { createSessionServer } from "./protocol.ts";
import type { ToolServer } from "./tool_server.ts";

/** Options for {@linkcode createTestClient}. */
export interface TestClientOptions {
  /** Headers sent with every request (lower-cased by the client). @default {} */
  headers?: Record<string, string>;
  /** Shorthand for an `authorization: Bearer <token>` header. */
  token?: string;
  /** Client capabilities to declare (e.g. `{ elicitation: {} }`). @default {} */
  capabilities?: ClientCapabilities;
}

/** Per-call options. */
export interface TestCallOptions {
  /** Headers for this call only, over the client's own. */
  headers?: Record<string, string>;
}

/** A connected in-memory client. */
export interface TestClient extends AsyncDisposable {
  /** The SDK client, for anything the helpers don't cover (e.g. request handlers for elicitation). */
  readonly client: Client;
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

const HEADERS_META = "dev.agentry.test/headers";

function lower(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
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

/** Connects an in-memory client to `server` (runs the approval invariant check first). */
export async function createTestClient(
  server: ToolServer,
  options: TestClientOptions = {},
): Promise<TestClient> {
  server.assertReady();
  const base = lower({
    ...(options.headers ?? {}),
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const session = createSessionServer(server);
  await session.connect(headerBridge(serverSide, base));
  const client = new Client({ name: "agentry-test-client", version: "0.1.0" }, {
    capabilities: options.capabilities ?? {},
  });
  await client.connect(clientSide);
  const meta = (call?: TestCallOptions) =>
    call?.headers ? { _meta: { [HEADERS_META]: lower(call.headers) } } : {};
  const close = async () => {
    await client.close();
    await session.close();
  };
  return {
    client,
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
