/**
 * The tool server: registration of tools, resources, resource templates and prompts, middleware,
 * routers and mounts, lifecycle hooks, and change notifications.
 *
 * @module
 */

import type { z } from "zod";
import { Logger } from "../log.ts";
import { middlewareRole } from "./chain.ts";
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
import { isAuthMiddleware } from "./auth/auth_middleware.ts";
import { RequireTenant } from "./guards.ts";
import { RequestStates, secretBytes } from "./modern/request_state.ts";
import { Pipeline } from "./pipeline.ts";
import { TaskStore, type TaskStoreOptions } from "./tasks/task_store.ts";
import { ROOT_SCOPE } from "./registration.ts";
import { ToolRouter } from "./router.ts";
import { ServerRegistry } from "./server_registry.ts";
import { loadServerSettings, type ServerSettings } from "./settings.ts";
import { hostEnv } from "../_util/host_env.ts";
import { checkOptionKeys } from "../_util/option_keys.ts";
import type { Middleware } from "./types.ts";

/** Options for {@linkcode createToolServer}. */
export interface ToolServerOptions {
  /** Server name sent at initialize. @default settings.serverName, else "agentry-server" */
  name?: string;
  /** Server version. @default "0.1.0" */
  version?: string;
  /** Instructions sent to clients at initialize. */
  instructions?: string;
  /** Force `auth: true` on every tool (and arm the HTTP 401 gate). @default false */
  requireAuth?: boolean;
  /** Every tool, resource and prompt authenticates and must carry a tenant. @default false */
  requireTenant?: boolean;
  /** Filter listings by what the caller may use. @default false */
  hideUnauthorizedTools?: boolean;
  /** Seconds a cancelled handler may keep running before its call is settled. @default 5 */
  cancelGracePeriod?: number;
  /** Logger. @default a logger named `agentry.mcp` at the settings' level */
  logger?: Logger;
  /**
   * Settings (see `loadServerSettings`). @default read from the `AGENTRY_*` variables the process may
   * read (pass `{}` to ignore the environment)
   */
  settings?: ServerSettings;
  /**
   * The HMAC secret (at least 32 bytes; a string counts its UTF-8 bytes) that signs the `requestState`
   * of 2026-07-28 `input_required` results, which carries a call's answers from one round to the next.
   * Set the same secret on every instance behind a load balancer, so any of them can continue a call
   * another one started.
   * @default 32 random bytes drawn once per process
   */
  requestStateSecret?: string | Uint8Array;
  /**
   * The Tasks extension's store (2026-07-28 requests): how long an ended task is kept (`ttlMs`), the
   * poll interval suggested to clients (`pollIntervalMs`) and how many tasks are kept (`maxTasks`).
   * @default { ttlMs: 1800000, pollIntervalMs: 1000, maxTasks: 1000 }
   */
  tasks?: TaskStoreOptions;
}

const OPTION_KEYS = {
  name: true,
  version: true,
  instructions: true,
  requireAuth: true,
  requireTenant: true,
  hideUnauthorizedTools: true,
  cancelGracePeriod: true,
  logger: true,
  settings: true,
  requestStateSecret: true,
  tasks: true,
} satisfies Record<keyof ToolServerOptions, true>;

/** A startup or shutdown hook. */
export type Hook = () => void | Promise<void>;

/** What the rest of `src/mcp` reaches inside a {@linkcode ToolServer}: its items and sessions, and its pipeline. */
export interface ToolServerInternals {
  /** Registered items and connected sessions. */
  readonly registry: ServerRegistry;
  /** The request pipeline. */
  readonly pipeline: Pipeline;
  /** Seals and opens the `requestState` of 2026-07-28 `input_required` results. */
  readonly requestStates: RequestStates;
  /** The Tasks extension's tasks. */
  readonly tasks: TaskStore;
}

let processSecret: Uint8Array | undefined;

/**
 * The internals of `server`, for the transports, request handlers and tests of `src/mcp` (a friend
 * accessor: the fields stay `#private`, and `mod.ts` does not export this). Set by `ToolServer`'s static block.
 */
export let internalsOf: (server: ToolServer) => ToolServerInternals;

/** A server of MCP tools, resources and prompts. Serve it with `toFetchHandler`, `serveStdio` or `run`. */
export class ToolServer {
  /** Server name. */
  readonly name: string;
  /** Server version. */
  readonly version: string;
  /** Instructions for clients. */
  readonly instructions?: string;
  /** Whether every tool requires authentication. */
  readonly requireAuth: boolean;
  /** Whether every item requires an authenticated tenant. */
  readonly requireTenant: boolean;
  /** Whether listings are filtered per caller. */
  readonly hideUnauthorizedTools: boolean;
  /** Grace period for cancelled handlers, seconds. */
  readonly cancelGracePeriod: number;
  /** Default timeout for items without one, seconds. */
  readonly defaultTimeout?: number;
  /** Server logger. */
  readonly logger: Logger;
  #registry: ServerRegistry;
  #pipeline: Pipeline;
  #internals: ToolServerInternals;
  #middleware: Middleware[] = [];
  #startup: Hook[] = [];
  #shutdown: Hook[] = [];

  static {
    internalsOf = (server) => server.#internals;
  }

  /** A server with `options`; unknown option names are refused. */
  constructor(options: ToolServerOptions = {}) {
    checkOptionKeys(options, { owner: "tool server", keys: OPTION_KEYS });
    const settings = options.settings ?? loadServerSettings(hostEnv);
    this.name = options.name ?? settings.serverName ?? "agentry-server";
    this.version = options.version ?? "0.1.0";
    this.instructions = options.instructions;
    this.requireTenant = options.requireTenant ?? false;
    this.requireAuth = (options.requireAuth ?? false) || this.requireTenant;
    this.hideUnauthorizedTools = options.hideUnauthorizedTools ?? false;
    this.cancelGracePeriod = options.cancelGracePeriod ?? 5;
    if (!(this.cancelGracePeriod >= 0)) throw new TypeError("tool server: cancelGracePeriod must be >= 0");
    this.defaultTimeout = settings.timeoutDefault;
    this.logger = options.logger ?? new Logger("agentry.mcp", { level: settings.logLevel ?? "info" });
    this.#registry = new ServerRegistry(this.logger);
    this.#pipeline = new Pipeline(this);
    const secret = options.requestStateSecret === undefined
      ? processSecret ??= crypto.getRandomValues(new Uint8Array(32))
      : secretBytes(options.requestStateSecret, "tool server");
    this.#internals = Object.freeze({
      registry: this.#registry,
      pipeline: this.#pipeline,
      requestStates: new RequestStates(secret),
      tasks: new TaskStore(options.tasks),
    });
  }

  /** Server middleware, outermost first. */
  get middleware(): readonly Middleware[] {
    return this.#middleware;
  }

  #enforce<D extends ItemDefinition>(definition: D): D {
    const needsAuth = this.requireTenant || (this.requireAuth && definition.kind === "tool");
    if (!needsAuth) return definition;
    const guards = this.requireTenant && !definition.guards.some((g) => g instanceof RequireTenant)
      ? [...definition.guards, new RequireTenant()]
      : definition.guards;
    return { ...definition, auth: true, guards };
  }

  #add(definitions: ItemDefinition[]): this {
    this.#registry.add(definitions.map((d) => this.#enforce(d)));
    return this;
  }

  /**
   * Registers a tool.
   *
   * @example
   * ```ts
   * import { z } from "zod";
   * import { createToolServer } from "@agentry/agentry/mcp";
   * const server = createToolServer({ name: "maths" });
   * server.tool("add", { description: "Add two numbers", input: z.object({ a: z.number(), b: z.number() }) },
   *   ({ a, b }) => a + b);
   * ```
   */
  tool<I extends ToolInput>(name: string, options: ToolOptions<I>, handler: ToolHandler<I>): this {
    return this.#add(new ToolRouter().tool(name, options, handler).resolve(ROOT_SCOPE));
  }

  /** Registers a static resource at `uri`. */
  resource(uri: string, options: ResourceOptions, handler: ResourceHandler): this {
    return this.#add(new ToolRouter().resource(uri, options, handler).resolve(ROOT_SCOPE));
  }

  /** Registers a resource template (`{x}` one segment; `{x*}` / `{+x}` the rest). */
  resourceTemplate(
    uriTemplate: string,
    options: ResourceTemplateOptions,
    handler: ResourceTemplateHandler,
  ): this {
    return this.#add(new ToolRouter().resourceTemplate(uriTemplate, options, handler).resolve(ROOT_SCOPE));
  }

  /** Registers a prompt. */
  prompt<A extends z.ZodObject>(name: string, options: PromptOptions<A>, handler: PromptHandler<A>): this {
    return this.#add(new ToolRouter().prompt(name, options, handler).resolve(ROOT_SCOPE));
  }

  /** Adds middleware; the first added runs outermost. */
  use(...middleware: Middleware[]): this {
    for (const m of middleware) {
      if (typeof m !== "function") throw new TypeError("use: middleware must be a function (ctx, next)");
    }
    this.#middleware.push(...middleware);
    this.#pipeline.invalidate();
    return this;
  }

  /** Adds a router's items, optionally under an extra name `prefix`. */
  include(router: ToolRouter, options: { prefix?: string } = {}): this {
    return this.#add(router.resolve(ROOT_SCOPE, options.prefix));
  }

  /**
   * Mounts a child server: its tools as `<prefix>_<name>`, its resources and prompts as they are,
   * all running the child's middleware after this server's; its hooks run with this server's.
   */
  mount(prefix: string, child: ToolServer): this {
    if (child === this) throw new TypeError("mount: a server cannot mount itself");
    const extra = child.middleware;
    this.#startup.push(() => child.startup());
    this.#shutdown.push(() => child.shutdown());
    return this.#add(
      child.#registry.definitions().map((definition) => ({
        ...definition,
        name: definition.kind === "tool" ? `${prefix}_${definition.name}` : definition.name,
        middleware: [...extra, ...definition.middleware],
      })),
    );
  }

  /** Runs `hook` before serving starts. */
  onStartup(hook: Hook): this {
    this.#startup.push(hook);
    return this;
  }

  /** Runs `hook` when serving stops. */
  onShutdown(hook: Hook): this {
    this.#shutdown.push(hook);
    return this;
  }

  /** Runs startup hooks in order. */
  async startup(): Promise<void> {
    this.assertReady();
    for (const hook of this.#startup) await hook();
  }

  /** Runs shutdown hooks in order (every hook runs; the first failure is rethrown after). */
  async shutdown(): Promise<void> {
    let failure: unknown;
    for (const hook of this.#shutdown) {
      try {
        await hook();
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure !== undefined) throw failure;
  }

  /**
   * Throws when a declared protection would not be enforced: an item with `auth: true` (or roles, or
   * `requireAuth`) and no auth middleware that would run for it, or a tool that requires approval and no
   * approval middleware. Transports and the test client call this before serving.
   */
  assertReady(): void {
    const isAuth = (m: Middleware) => isAuthMiddleware(m) || middlewareRole(m) === "auth";
    const isGate = (m: Middleware) => middlewareRole(m) === "approval";
    const serverAuth = this.#middleware.some(isAuth);
    const serverGate = this.#middleware.some(isGate);
    for (const item of this.#registry.definitions()) {
      const what = `${item.kind.replace("_", " ")} '${item.kind === "resource" ? item.uri : item.name}'`;
      if (item.auth && !serverAuth && !item.middleware.some(isAuth)) {
        throw new Error(
          `${what} requires authentication, but no auth middleware is installed (server.use(authMiddleware(...)))`,
        );
      }
      if (item.kind === "tool" && item.requiresApproval && !serverGate && !item.middleware.some(isGate)) {
        throw new Error(
          `tool '${item.name}' requires approval, but no approval middleware is installed (server.use(approvalGate(...)))`,
        );
      }
    }
  }

  /** Sends `tools/list_changed` to every session; resolves how many were reached. */
  notifyToolsChanged(): Promise<number> {
    return this.#registry.notify("tools");
  }

  /** Sends `resources/list_changed` to every session; resolves how many were reached. */
  notifyResourcesChanged(): Promise<number> {
    return this.#registry.notify("resources");
  }

  /** Sends `prompts/list_changed` to every session; resolves how many were reached. */
  notifyPromptsChanged(): Promise<number> {
    return this.#registry.notify("prompts");
  }

  /** Sends `resources/updated` for `uri` to sessions subscribed to it; resolves how many. */
  notifyResourceUpdated(uri: string): Promise<number> {
    return this.#registry.notifyUpdated(uri);
  }
}

/** A new {@linkcode ToolServer}. */
export function createToolServer(options: ToolServerOptions = {}): ToolServer {
  return new ToolServer(options);
}
