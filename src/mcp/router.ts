/**
 * Routers group registrations under a name prefix with shared tags, auth, guards and middleware.
 *
 * Tool names are the prefixes joined with `_` then the tool's own name (an `include` prefix comes
 * first). Prefixes never apply to resource URIs or prompt names. Router middleware runs after the
 * server's. Register everything on a router before including it: an included router is frozen.
 *
 * @module
 */

import type { z } from "zod";
import { checkOptionKeys } from "../_util/option_keys.ts";
import type {
  ItemDefinition,
  PromptHandler,
  PromptOptions,
  ResourceHandler,
  ResourceOptions,
  ResourceTemplateHandler,
  ResourceTemplateOptions,
  ToolHandler,
  ToolInput,
  ToolOptions,
} from "./definitions.ts";
import {
  definePrompt,
  defineResource,
  defineResourceTemplate,
  defineTool,
  type Scope,
} from "./registration.ts";
import type { Guard, Middleware } from "./types.ts";

/** Options for {@linkcode createRouter}. */
export interface RouterOptions {
  /** Name prefix for the router's tools. */
  prefix?: string;
  /** Tags added to every item. @default [] */
  tags?: string[];
  /** Require authentication for every item. @default false */
  auth?: boolean;
  /** Middleware run (after the server's) for every item. @default [] */
  middleware?: Middleware[];
  /** Guards run before each item's own guards. @default [] */
  guards?: Guard[];
}

type Entry = (scope: Scope) => ItemDefinition[];

const ROUTER_KEYS = {
  prefix: true,
  tags: true,
  auth: true,
  middleware: true,
  guards: true,
} satisfies Record<keyof RouterOptions, true>;

/** Joins a scope with a router's options. */
export function innerScope(scope: Scope, options: RouterOptions, prefix?: string): Scope {
  return {
    prefixes: [...scope.prefixes, ...(prefix ? [prefix] : []), ...(options.prefix ? [options.prefix] : [])],
    tags: [...scope.tags, ...(options.tags ?? [])],
    auth: scope.auth || (options.auth ?? false),
    guards: [...scope.guards, ...(options.guards ?? [])],
    middleware: [...scope.middleware, ...(options.middleware ?? [])],
  };
}

/** A group of tools, resources and prompts; include it in a server or another router. */
export class ToolRouter {
  /** The router's own options. */
  readonly options: Readonly<RouterOptions>;
  #entries: Entry[] = [];
  #frozen = false;

  /** A router with `options`. */
  constructor(options: RouterOptions = {}) {
    checkOptionKeys(options, { owner: "router", keys: ROUTER_KEYS });
    this.options = { ...options };
  }

  #add(entry: Entry): this {
    if (this.#frozen) throw new TypeError("router: already included; register items before including it");
    this.#entries.push(entry);
    return this;
  }

  /** Registers a tool. */
  tool<I extends ToolInput>(name: string, options: ToolOptions<I>, handler: ToolHandler<I>): this {
    return this.#add((scope) => [defineTool(name, options, handler as ToolHandler, scope)]);
  }

  /** Registers a static resource. */
  resource(uri: string, options: ResourceOptions, handler: ResourceHandler): this {
    return this.#add((scope) => [defineResource(uri, options, handler, scope)]);
  }

  /** Registers a resource template. */
  resourceTemplate(
    uriTemplate: string,
    options: ResourceTemplateOptions,
    handler: ResourceTemplateHandler,
  ): this {
    return this.#add((scope) => [defineResourceTemplate(uriTemplate, options, handler, scope)]);
  }

  /** Registers a prompt. */
  prompt<A extends z.ZodObject>(name: string, options: PromptOptions<A>, handler: PromptHandler<A>): this {
    return this.#add((
      scope,
    ) => [definePrompt(name, options as PromptOptions, handler as PromptHandler, scope)]);
  }

  /** Nests `router` inside this one, optionally under an extra `prefix`. */
  include(router: ToolRouter, options: { prefix?: string } = {}): this {
    return this.#add((scope) => router.resolve(scope, options.prefix));
  }

  /** The router's definitions within `scope` (freezes the router). */
  resolve(scope: Scope, prefix?: string): ItemDefinition[] {
    this.#frozen = true;
    const inner = innerScope(scope, this.options, prefix);
    return this.#entries.flatMap((entry) => entry(inner));
  }
}

/** A new {@linkcode ToolRouter}. */
export function createRouter(options: RouterOptions = {}): ToolRouter {
  return new ToolRouter(options);
}
