/**
 * The session of a call that may become a task. Until the handler calls `startTask(ctx)` it is the
 * request's own session (input rides on the request's `input_required` rounds). From then on the
 * call belongs to its task: progress becomes the task's `statusMessage`, and `elicit`, `sample` and
 * `listRoots` park the task in `input_required` until `tasks/update` brings the answer.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/types"
import type {
  CreateMessageResult,
  ElicitResult,
  ListRootsResult,
  LoggingLevel,
} from "@modelcontextprotocol/sdk/types.js";
import type { ClientContext } from "../client_context.ts";
import { isInputRequired, type PendingInput } from "../input_required.ts";
import { missingCapability } from "../session_parts.ts";
import type { CallSession, ClientMethod, ClientRequestOptions } from "../types.ts";
import type { TaskRecord } from "./task_record.ts";

const PREFIX: Record<ClientMethod, string> = {
  "elicitation/create": "e",
  "sampling/createMessage": "s",
  "roots/list": "r",
};

/** The principal key a task is kept under: the caller's tenant and client id, or `""` (anonymous). */
export function ownerOf(client: ClientContext | undefined): string {
  return client ? JSON.stringify([client.tenantId ?? null, client.clientId]) : "";
}

/** Creates the task of a call that hands off. */
export type TaskFactory = () => TaskRecord;

/** A call's session that can move from its request to a task. */
export class TaskCallSession implements CallSession {
  #request: CallSession;
  #create: TaskFactory;
  #record?: TaskRecord;
  #counts: Record<ClientMethod, number> = {
    "elicitation/create": 0,
    "sampling/createMessage": 0,
    "roots/list": 0,
  };
  #handedOff = Promise.withResolvers<TaskRecord>();
  #inputRequired = false;

  /** A session on `request`; `create` makes the task when the call hands off. */
  constructor(request: CallSession, create: TaskFactory) {
    this.#request = request;
    this.#create = create;
    this.#handedOff.promise.catch(() => {});
  }

  /** Settles with the task once the call has handed off. */
  get handedOff(): Promise<TaskRecord> {
    return this.#handedOff.promise;
  }

  /** The task, once the call has handed off. */
  get task(): TaskRecord | undefined {
    return this.#record;
  }

  /**
   * Moves the call into a new task (once; later calls return the same task). Throws once the call
   * has raised an `InputRequiredSignal` in its request: that request answers `input_required`, so a
   * task made now would be one no client ever learns about.
   */
  handOff(): TaskRecord {
    if (this.#record) return this.#record;
    if (this.#inputRequired) {
      throw new Error(
        "startTask after an InputRequiredSignal: this request answers input_required, so no client " +
          "would learn of the task. Do not catch the signal that elicit(), sample() or listRoots() raise " +
          "(let it out of the handler); the call runs again with the answers and can start its task then",
      );
    }
    this.#record = this.#create();
    this.#handedOff.resolve(this.#record);
    return this.#record;
  }

  /** The request's session id. */
  get id(): string | undefined {
    return this.#request.id;
  }

  /** The request's era. */
  get era(): "legacy" | "modern" {
    return this.#request.era;
  }

  /** What earlier rounds of the request carried (its answers and middleware's values, e.g. the approval id). */
  get carried(): Readonly<Record<string, unknown>> | undefined {
    return this.#request.carried;
  }

  /** A task can always ask (it waits for `tasks/update`); before, as the request can. */
  get live(): boolean {
    return this.#record !== undefined || this.#request.live;
  }

  /** Whether the request declared the capability `method` needs. */
  supports(method: ClientMethod): boolean {
    return this.#request.supports(method);
  }

  /** Progress: the task's `statusMessage` once handed off, else `notifications/progress`. */
  progress(progress: number, total?: number, message?: string): Promise<void> {
    if (!this.#record) return this.#request.progress(progress, total, message);
    this.#record.report(message ?? (total === undefined ? `${progress}` : `${progress}/${total}`));
    return Promise.resolve();
  }

  /** Log messages go to the request; a task has no stream of its own, so they are dropped there. */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    return this.#record ? Promise.resolve() : this.#request.log(level, data, logger);
  }

  /** Asks the client's user to fill a form. */
  elicit(
    params: Parameters<CallSession["elicit"]>[0],
    options: ClientRequestOptions = {},
  ): Promise<ElicitResult> {
    if (!this.#record) return this.#noting(this.#request.elicit(params, options));
    return this.#ask({ method: "elicitation/create", params: { ...params } }, options) as Promise<
      ElicitResult
    >;
  }

  /** Asks the client's model for a completion. */
  sample(
    params: Parameters<CallSession["sample"]>[0],
    options: ClientRequestOptions = {},
  ): Promise<CreateMessageResult> {
    if (!this.#record) return this.#noting(this.#request.sample(params, options));
    return this.#ask({ method: "sampling/createMessage", params: { ...params } }, options) as Promise<
      CreateMessageResult
    >;
  }

  /** Asks the client for its roots. */
  listRoots(options: ClientRequestOptions = {}): Promise<ListRootsResult> {
    if (!this.#record) return this.#noting(this.#request.listRoots(options));
    return this.#ask({ method: "roots/list" }, options) as Promise<ListRootsResult>;
  }

  /** `asked`, noting an `InputRequiredSignal` it rejects with (the request then answers input_required). */
  #noting<T>(asked: Promise<T>): Promise<T> {
    return asked.catch((error: unknown) => {
      if (isInputRequired(error)) this.#inputRequired = true;
      throw error;
    });
  }

  #ask(request: PendingInput, options: ClientRequestOptions): Promise<unknown> {
    const position = ++this.#counts[request.method];
    if (!this.supports(request.method)) {
      return Promise.reject(missingCapability(request.method, "envelope"));
    }
    return this.#record!.ask(options.key ?? `${PREFIX[request.method]}${position}`, request);
  }
}
