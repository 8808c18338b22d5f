/**
 * MCP servers an open-mode agent connected itself: one {@linkcode McpConnections} per server, built from
 * the URL alone (no headers, bearer token, API key or secret: the process's credentials never reach them).
 *
 * @module
 */

import type { Logger } from "../../log.ts";
import { type AgentTool, McpConnectError, McpConnections } from "../mcp/mod.ts";
import type { ToolOutcome } from "../mcp/mod.ts";

/** Bounds of the connections an agent opens. */
export interface AgentServerSettings {
  logger: Logger;
  connectTimeoutMs?: number;
  callTimeoutMs?: number;
  clientInfo: { name: string; version: string };
}

/** One agent-connected server. */
interface Entry {
  url: string;
  connections: McpConnections;
}

/** The URL in a comparable form (`new URL(url).href` without a fragment), or undefined when not http(s). */
export function normaliseMcpUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return undefined;
  parsed.hash = "";
  return parsed.href;
}

/** The servers an agent connected, by name. */
export class AgentServers {
  #entries = new Map<string, Entry>();
  #settings: AgentServerSettings;
  #closed = false;

  constructor(settings: AgentServerSettings) {
    this.#settings = settings;
  }

  has(name: string): boolean {
    return this.#entries.has(name);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Connects `url` as `name`; rejects with {@linkcode McpConnectError} when it cannot. */
  async add(name: string, url: string): Promise<number> {
    const connections = await McpConnections.connect({ [name]: { url } }, {
      logger: this.#settings.logger,
      connectTimeoutMs: this.#settings.connectTimeoutMs,
      callTimeoutMs: this.#settings.callTimeoutMs,
      clientInfo: this.#settings.clientInfo,
    });
    if (this.#closed) {
      await connections.close();
      throw new McpConnectError(name, "the process is stopping");
    }
    this.#entries.set(name, { url, connections });
    return connections.tools().length;
  }

  /** Closes one server; false when no such server. */
  async remove(name: string): Promise<boolean> {
    const entry = this.#entries.get(name);
    if (!entry) return false;
    this.#entries.delete(name);
    await entry.connections.close();
    return true;
  }

  /** Closes every server and refuses later ones. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.clear();
  }

  /** Closes every server; answers their names. */
  async clear(): Promise<string[]> {
    const names = [...this.#entries.keys()];
    await Promise.all(names.map((name) => this.remove(name)));
    return names;
  }

  tools(): AgentTool[] {
    return [...this.#entries.values()].flatMap((entry) => entry.connections.tools());
  }

  /** Calls a tool offered as `name`; undefined when no agent server offers it. */
  call(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolOutcome> | undefined {
    for (const entry of this.#entries.values()) {
      if (entry.connections.tools().some((tool) => tool.name === name)) {
        return entry.connections.call(name, args, { signal });
      }
    }
    return undefined;
  }

  list(): Array<{ name: string; url: string; tools: number; connected: boolean }> {
    return [...this.#entries].map(([name, entry]) => ({
      name,
      url: entry.url,
      tools: entry.connections.tools().length,
      connected: entry.connections.status()[name]?.connected ?? false,
    }));
  }
}

export { McpConnectError };
