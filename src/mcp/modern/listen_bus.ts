/**
 * The change-event bus behind `subscriptions/listen` for one tool server: while at least one listen
 * stream is open it is connected to the server's registry like a 2025-era session, so registrations
 * while serving (and `notify*` calls) reach modern clients as `list_changed` / `resources/updated`.
 *
 * @module
 */

import { InMemoryServerEventBus, type ServerEvent, type ServerEventBus } from "@modelcontextprotocol/server";
import type { ListKind } from "../server_registry.ts";
import { internalsOf, type ToolServer } from "../tool_server.ts";

const LIST_EVENT: Record<ListKind, ServerEvent> = {
  tools: { kind: "tools_list_changed" },
  resources: { kind: "resources_list_changed" },
  prompts: { kind: "prompts_list_changed" },
};

/** A bus relaying `server`'s list changes to open listen streams. */
export class ListenBus implements ServerEventBus {
  #inner = new InMemoryServerEventBus();
  #server: ToolServer;
  #detach?: () => void;

  /** A bus for `server`; connected to its registry only while a listen stream is open. */
  constructor(server: ToolServer) {
    this.#server = server;
  }

  /** Open listen streams. */
  get listenerCount(): number {
    return this.#inner.listenerCount;
  }

  /** Delivers `event` to every open listen stream. */
  publish(event: ServerEvent): void {
    this.#inner.publish(event);
  }

  /** Registers a listen stream; the returned function (idempotent) removes it. */
  subscribe(listener: (event: ServerEvent) => void): () => void {
    const unsubscribe = this.#inner.subscribe(listener);
    this.#detach ??= internalsOf(this.#server).registry.attach({
      listChanged: (kind) => Promise.resolve(this.publish(LIST_EVENT[kind])),
      resourceUpdated: (uri) =>
        Promise.resolve(this.publish({ kind: "resource_updated", uri })).then(() => true),
    });
    return () => {
      unsubscribe();
      if (this.#inner.listenerCount > 0) return;
      this.#detach?.();
      this.#detach = undefined;
    };
  }

  /** Disconnects from the registry. */
  close(): void {
    this.#detach?.();
    this.#detach = undefined;
  }
}
