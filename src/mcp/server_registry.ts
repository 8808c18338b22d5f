/**
 * The items a server holds and the sessions connected to it. Adding items while sessions are
 * connected sends them the matching `list_changed` notifications.
 *
 * @module
 */

import type { Logger } from "../log.ts";
import { describeError } from "../_util/errors.ts";
import type {
  ItemDefinition,
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
} from "./definitions.ts";
import { compileUriTemplate, type UriTemplate } from "./uri_template.ts";

/** A list kind that can change. */
export type ListKind = "tools" | "resources" | "prompts";

/** A connected session, as the registry sees it. */
export interface SessionLink {
  /** Sends `notifications/<kind>/list_changed`. */
  listChanged(kind: ListKind): Promise<void>;
  /** Sends `notifications/resources/updated` when subscribed to `uri`; whether it was sent. */
  resourceUpdated(uri: string): Promise<boolean>;
}

/** A template with its compiled matcher. */
export interface TemplateEntry {
  /** The definition. */
  definition: ResourceTemplateDefinition;
  /** The matcher. */
  template: UriTemplate;
}

/** Registered items plus connected sessions. */
export class ServerRegistry {
  /** Tools by name. */
  readonly tools: Map<string, ToolDefinition> = new Map();
  /** Static resources by URI. */
  readonly resources: Map<string, ResourceDefinition> = new Map();
  /** Templates by template text. */
  readonly templates: Map<string, TemplateEntry> = new Map();
  /** Prompts by name. */
  readonly prompts: Map<string, PromptDefinition> = new Map();
  #sessions = new Set<SessionLink>();
  #logger: Logger;
  #revision = 0;

  /** An empty registry logging through `logger`. */
  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Increases whenever an item is added. */
  get revision(): number {
    return this.#revision;
  }

  /** Number of connected sessions. */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  #key(definition: ItemDefinition): [Map<string, unknown>, string, string] {
    switch (definition.kind) {
      case "tool":
        return [this.tools, definition.name, "tool"];
      case "resource":
        return [this.resources, definition.uri, "resource"];
      case "resource_template":
        return [this.templates, definition.uriTemplate, "resource template"];
      case "prompt":
        return [this.prompts, definition.name, "prompt"];
    }
  }

  /** Adds definitions (all or none); a duplicate name or URI is refused. */
  add(definitions: ItemDefinition[]): void {
    const seen = new Set<string>();
    for (const definition of definitions) {
      const [map, key, what] = this.#key(definition);
      if (map.has(key) || seen.has(`${what}:${key}`)) {
        throw new TypeError(`${what} '${key}' is already registered`);
      }
      seen.add(`${what}:${key}`);
    }
    const changed = new Set<ListKind>();
    for (const definition of definitions) {
      switch (definition.kind) {
        case "tool":
          this.tools.set(definition.name, definition);
          changed.add("tools");
          break;
        case "resource":
          this.resources.set(definition.uri, definition);
          changed.add("resources");
          break;
        case "resource_template":
          this.templates.set(definition.uriTemplate, {
            definition,
            template: compileUriTemplate(definition.uriTemplate),
          });
          changed.add("resources");
          break;
        case "prompt":
          this.prompts.set(definition.name, definition);
          changed.add("prompts");
      }
    }
    this.#revision++;
    for (const kind of changed) void this.notify(kind);
  }

  /** Every definition, in registration order per kind. */
  definitions(): ItemDefinition[] {
    return [
      ...this.tools.values(),
      ...this.resources.values(),
      ...[...this.templates.values()].map((entry) => entry.definition),
      ...this.prompts.values(),
    ];
  }

  /** The static resource or first matching template for `uri`. */
  findResource(
    uri: string,
  ):
    | { definition: ResourceDefinition | ResourceTemplateDefinition; params: Record<string, string> }
    | undefined {
    const resource = this.resources.get(uri);
    if (resource) return { definition: resource, params: {} };
    for (const entry of this.templates.values()) {
      const params = entry.template.match(uri);
      if (params) return { definition: entry.definition, params };
    }
    return undefined;
  }

  /** Connects a session; returns the function that disconnects it. */
  attach(link: SessionLink): () => void {
    this.#sessions.add(link);
    return () => this.#sessions.delete(link);
  }

  async #each(send: (link: SessionLink) => Promise<boolean>): Promise<number> {
    const results = await Promise.all([...this.#sessions].map(async (link) => {
      try {
        return await send(link);
      } catch (error) {
        this.#logger.debug("notification not delivered", { error: describeError(error) });
        return false;
      }
    }));
    return results.filter(Boolean).length;
  }

  /** Sends `list_changed` for `kind` to every session; resolves how many were reached. */
  notify(kind: ListKind): Promise<number> {
    return this.#each(async (link) => {
      await link.listChanged(kind);
      return true;
    });
  }

  /** Sends `resources/updated` for `uri` to subscribed sessions; resolves how many were reached. */
  notifyUpdated(uri: string): Promise<number> {
    return this.#each((link) => link.resourceUpdated(uri));
  }
}
