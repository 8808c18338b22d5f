/**
 * The context of one tool call, resource read or prompt get, shared by middleware, guards and the
 * handler.
 *
 * @module
 */

import type { Logger } from "../log.ts";
import type { ClientContext } from "./client_context.ts";
import type { ItemDefinition } from "./definitions.ts";
import type { CallSession } from "./types.ts";

/** What kind of request a context carries. */
export type RequestType = "tool" | "resource" | "prompt";

/** Fields of a {@linkcode RequestContext}. */
export interface RequestContextInit {
  /** Server name. */
  serverName: string;
  /** The tool, resource or prompt being served. */
  definition: ItemDefinition;
  /** Request kind. */
  requestType: RequestType;
  /** `x-request-id` header, else 12 random hex characters. */
  requestId: string;
  /** Lower-cased headers of the HTTP request that carried this message (empty on stdio). */
  meta: Readonly<Record<string, string>>;
  /** Validated arguments. */
  arguments: Record<string, unknown>;
  /** The protocol session. */
  session: CallSession;
  /** Aborted when the client cancels or the call times out. */
  signal: AbortSignal;
  /** Logger for this server. */
  logger: Logger;
  /** Caller IP address, when known. */
  ipAddress?: string;
  /** The resource URI for resource reads. */
  resourceUri?: string;
}

/** One request travelling through the middleware chain. */
export class RequestContext {
  /** Server name. */
  readonly serverName: string;
  /** What is being served. */
  readonly definition: ItemDefinition;
  /** `"tool"`, `"resource"` or `"prompt"`. */
  readonly requestType: RequestType;
  /** Correlation id for logs, audit and webhooks. */
  readonly requestId: string;
  /** Lower-cased headers of the carrying HTTP request. */
  readonly meta: Readonly<Record<string, string>>;
  /** Validated arguments (prompt arguments after coercion). */
  readonly arguments: Record<string, unknown>;
  /** Protocol helpers: progress, logging, elicitation, sampling. */
  readonly session: CallSession;
  /** Server logger. */
  readonly logger: Logger;
  /** Caller IP address. */
  readonly ipAddress?: string;
  /** Resource URI for resource reads. */
  readonly resourceUri?: string;
  /** Free-form state shared along the chain (e.g. `response_metadata`). */
  readonly state: Record<string, unknown> = {};
  #parent: AbortSignal;
  #own?: AbortController;
  #signal?: AbortSignal;
  #abortReason?: unknown;
  /** Caller id, set by auth middleware. */
  clientId?: string;
  /** The authenticated caller, set by auth middleware. */
  client?: ClientContext;

  /** A context from its fields. */
  constructor(init: RequestContextInit) {
    this.serverName = init.serverName;
    this.definition = init.definition;
    this.requestType = init.requestType;
    this.requestId = init.requestId;
    this.meta = init.meta;
    this.arguments = init.arguments;
    this.session = init.session;
    this.#parent = init.signal;
    this.logger = init.logger;
    this.ipAddress = init.ipAddress;
    this.resourceUri = init.resourceUri;
  }

  /** Aborted when the client cancels or the call times out. */
  get signal(): AbortSignal {
    if (!this.#signal) {
      this.#own = new AbortController();
      if (this.#abortReason !== undefined) this.#own.abort(this.#abortReason);
      this.#signal = AbortSignal.any([this.#parent, this.#own.signal]);
    }
    return this.#signal;
  }

  /** Whether the client cancelled (the transport's signal, without timeouts). */
  get cancelled(): AbortSignal {
    return this.#parent;
  }

  /** Aborts {@linkcode signal} (e.g. on timeout) so the handler can stop its work. */
  abort(reason: unknown): void {
    if (this.#own) this.#own.abort(reason);
    else this.#abortReason ??= reason;
  }

  /** The tool, resource or prompt name. */
  get name(): string {
    return this.definition.name;
  }

  /** The tenant of the authenticated caller, if any. */
  get tenantId(): string | undefined {
    return this.client?.tenantId;
  }
}
