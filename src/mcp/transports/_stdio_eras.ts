/**
 * One stdio connection, either protocol revision: the first message picks the era. An opening that
 * claims 2026-07-28 (`server/discover`, or a request whose `_meta` names a protocol version) is served
 * by the modern binding through SDK v2's `serveStdio` (one pinned instance, `subscriptions/listen` and
 * input_required as on HTTP); anything else (`initialize`) by today's 2025-era session server.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport as LegacyTransport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  isJSONRPCRequest,
  type JSONRPCMessage,
  type McpServer,
  type Transport,
} from "@modelcontextprotocol/server";
import { serveStdio as serveModernStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import type { Readable, Writable } from "node:stream";
import { describeError } from "../../_util/errors.ts";
import { createModernServer } from "../modern/modern_server.ts";
import { createSessionServer } from "../protocol.ts";
import { internalsOf, type ToolServer } from "../tool_server.ts";

const PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";

/** Whether `message` opens a 2026-07-28 connection. */
export function isModernOpening(message: JSONRPCMessage): boolean {
  if (!isJSONRPCRequest(message)) return false;
  if (message.method === "server/discover") return true;
  const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  return typeof meta?.[PROTOCOL_VERSION] === "string";
}

/** A transport over another one: what it receives is handed in with {@linkcode deliver}. */
class Relay implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly #wire: Transport;

  constructor(wire: Transport) {
    this.#wire = wire;
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.#wire.send(message);
  }

  close(): Promise<void> {
    return this.#wire.close();
  }

  deliver(message: JSONRPCMessage): void {
    this.onmessage?.(message);
  }
}

/** A modern instance for stdio whose list changes go to the connection's listen subscriptions. */
function stdioModernServer(server: ToolServer, links: Set<() => void>): McpServer {
  const mcp = createModernServer(server);
  const detach = internalsOf(server).registry.attach({
    async listChanged(kind) {
      if (kind === "tools") mcp.sendToolListChanged();
      else if (kind === "resources") mcp.sendResourceListChanged();
      else mcp.sendPromptListChanged();
      await Promise.resolve();
    },
    async resourceUpdated(uri) {
      await mcp.server.sendResourceUpdated({ uri });
      return true;
    },
  });
  links.add(detach);
  return mcp;
}

/** A stdio connection serving `server` in the era its first message asks for; resolves once connected. */
export async function connectStdio(
  server: ToolServer,
  stdin: Readable,
  stdout: Writable,
): Promise<{ close(): Promise<void>; onclose?: () => void }> {
  const wire = new StdioServerTransport(stdin, stdout);
  const relay = new Relay(wire);
  const links = new Set<() => void>();
  const queued: JSONRPCMessage[] = [];
  let ready = false;
  let stop: () => Promise<void> = () => wire.close();
  const handle: { close(): Promise<void>; onclose?: () => void } = { close: () => stop() };

  async function open(first: JSONRPCMessage): Promise<void> {
    if (isModernOpening(first)) {
      const modern = serveModernStdio(() => stdioModernServer(server, links), {
        transport: relay,
        legacy: "reject",
        onerror: (error) => server.logger.debug("MCP stdio", { error: describeError(error) }),
      });
      stop = () => modern.close();
    } else {
      const sdk = createSessionServer(server, { live: true });
      await sdk.connect(relay as LegacyTransport);
      stop = () => sdk.close();
    }
    ready = true;
    for (const message of queued.splice(0)) relay.deliver(message);
  }

  wire.onmessage = (message) => {
    if (ready) return relay.deliver(message);
    queued.push(message);
    if (queued.length === 1) {
      open(message).catch((error) => server.logger.error("MCP stdio", { error: describeError(error) }));
    }
  };
  wire.onerror = (error) => relay.onerror?.(error);
  wire.onclose = () => {
    for (const detach of links) detach();
    relay.onclose?.();
    handle.onclose?.();
  };
  await wire.start();
  return handle;
}
