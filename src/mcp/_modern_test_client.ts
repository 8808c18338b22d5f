/**
 * The 2026-07-28 side of `createTestClient`: an SDK v2 client pinned to 2026-07-28 whose streamable
 * HTTP requests go straight to the server's fetch handler (no socket), with the answer options
 * registered so `input_required` results are answered and the call retried.
 *
 * @module
 */

import {
  Client,
  type ClientCapabilities as WireCapabilities,
  type CreateMessageResult as WireSamplingResult,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
// @ts-types="@modelcontextprotocol/sdk/types"
import type {
  CallToolResult,
  ClientCapabilities,
  CreateMessageRequestParams,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { ModernTestClient, TestCallOptions, TestClientOptions } from "./testing.ts";
import type { ToolServer } from "./tool_server.ts";
import { toFetchHandler } from "./transports/to_fetch_handler.ts";

/**
 * The two SDKs type the same wire shapes separately (v1's and v2's zod schemas differ in detail, e.g. a
 * JSON value vs `object`): what crosses here is the same JSON, read back as the v1 types the helpers
 * have always returned.
 */
function sameWire<T>(value: unknown): T {
  return value as T;
}

/** The SDK v2 client (`@modelcontextprotocol/client`). */
export type ModernClient = Client;

/** The endpoint the in-memory requests name (loopback, so the Host/Origin policy lets them through). */
const ENDPOINT = "http://127.0.0.1/mcp";

function register(client: Client, options: TestClientOptions): void {
  const { onElicit, onSample, roots } = options;
  if (onElicit) {
    client.setRequestHandler("elicitation/create", async (request) => {
      if (request.params.mode === "url") throw new Error("the test client answers form elicitations only");
      return await onElicit(request.params);
    });
  }
  if (onSample) {
    client.setRequestHandler(
      "sampling/createMessage",
      async (request) =>
        sameWire<WireSamplingResult>(await onSample(sameWire<CreateMessageRequestParams>(request.params))),
    );
  }
  if (roots) client.setRequestHandler("roots/list", () => ({ roots }));
}

/** Connects a 2026-07-28 client to `server` through its fetch handler. */
export async function modernTestClient(
  server: ToolServer,
  options: TestClientOptions & { headers: Record<string, string>; capabilities: ClientCapabilities },
): Promise<ModernTestClient> {
  const handler = toFetchHandler(server);
  const transport = new StreamableHTTPClientTransport(new URL(ENDPOINT), {
    requestInit: { headers: options.headers },
    fetch: (url, init) => handler(new Request(url, init)),
  });
  const client = new Client({ name: "agentry-test-client", version: "0.1.0" }, {
    capabilities: sameWire<WireCapabilities>(options.capabilities),
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  register(client, options);
  try {
    await client.connect(transport);
  } catch (error) {
    await handler.close();
    throw error;
  }
  // Per-call headers ride on the HTTP request; lists and reads always go to the server (what this
  // caller sees may differ from the last caller's).
  const sent = (call?: TestCallOptions) => ({ headers: call?.headers ?? {}, cacheMode: "refresh" as const });
  const close = async () => {
    await client.close();
    await handler.close();
  };
  return {
    client,
    protocolVersion: client.getNegotiatedProtocolVersion() ?? "2026-07-28",
    callTool: async (name, args = {}, call) =>
      sameWire<CallToolResult>(await client.callTool({ name, arguments: args }, sent(call))),
    listTools: async (call) => sameWire<Tool[]>((await client.listTools(undefined, sent(call))).tools),
    listResources: async (call) =>
      sameWire<Resource[]>((await client.listResources(undefined, sent(call))).resources),
    listResourceTemplates: async (call) =>
      sameWire<ResourceTemplate[]>(
        (await client.listResourceTemplates(undefined, sent(call))).resourceTemplates,
      ),
    readResource: async (uri, call) =>
      sameWire<ReadResourceResult>(await client.readResource({ uri }, sent(call))),
    listPrompts: async (call) =>
      sameWire<Prompt[]>((await client.listPrompts(undefined, sent(call))).prompts),
    getPrompt: async (name, args = {}, call) =>
      sameWire<GetPromptResult>(await client.getPrompt({ name, arguments: args }, sent(call))),
    close,
    [Symbol.asyncDispose]: close,
  };
}
