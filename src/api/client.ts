/**
 * A typed client for the Agentry control API: one method per route.
 *
 * @example
 * ```ts
 * // example: needs a running runtime (`agentry runtime start`, the token it printed)
 * import { RuntimeClient } from "@agentry/agentry/client";
 * await using client = new RuntimeClient({ baseUrl: "http://127.0.0.1:9100", token: "s3cret-token" });
 * await client.deploy("reporter", { instructions: "Summarise the day." }, { start: true });
 * console.log((await client.getProcess("reporter")).state);
 * ```
 *
 * @module
 */

import type {
  Anomaly,
  AskAnswer,
  ProcessConfigInput,
  ProcessState,
  ProcessStatus,
  ProcessSummary,
  QueuedMessage,
  RewindMode,
  RewindPlan,
  RewindResult,
  RunDetail,
  RunProgress,
  RuntimeEvent,
  RuntimeStatus,
  TriggerConfigInput,
} from "../runtime/mod.ts";
import { RuntimeApiError } from "./client_error.ts";
import {
  type EventsOptions,
  openEventStream,
  type RuntimeEventReset,
  runtimeEvents,
  type StreamConnection,
} from "./client_events.ts";
import { fetchApi } from "./client_fetch.ts";
import type {
  AnomaliesClearedAnswer,
  ContextAnswer,
  DeployAnswer,
  InboxAnswer,
  InstructionsAnswer,
  JournalAnswer,
  RollbackAnswer,
  RunListAnswer,
  SecretRotatedAnswer,
  SecretsListAnswer,
  SecretsRevokedAnswer,
  TriggerAddedAnswer,
  TriggerListingAnswer,
  TriggerRemovedAnswer,
} from "./client_types.ts";
import type { BudgetPatch, BudgetPatchAnswer, HealthPatch, HealthPatchAnswer } from "./live_patch_types.ts";
import type { MissionAnswer, MissionPatch, MissionPatchAnswer } from "./mission_types.ts";
import type { DeadLettersAnswer, DeadLettersClearedAnswer, RedeliveredAnswer } from "./dead_letter_types.ts";
import type { AskOptions, SendMessageOptions } from "./client_options.ts";

export { RuntimeApiError } from "./client_error.ts";
export type * from "./client_types.ts";
export type * from "./live_patch_types.ts";
export type * from "./mission_types.ts";
export type * from "./dead_letter_types.ts";
export type * from "./client_options.ts";
export type { EventsOptions, RuntimeEventReset } from "./client_events.ts";

/** Options for {@linkcode RuntimeClient}. */
export interface RuntimeClientOptions {
  /** Where the API is served, e.g. `http://127.0.0.1:9100` (with or without `/api/v1`). */
  baseUrl: string;
  /** Bearer token. */
  token?: string;
  /** Alias of `token`; giving both with different values is an error. */
  authToken?: string;
  /** Seconds before a request is abandoned. @default 30 */
  timeout?: number;
  /** The fetch implementation. @default globalThis.fetch */
  fetch?: typeof fetch;
}

/** Client for the control API. Async-disposable; `close()` aborts requests in flight. */
export class RuntimeClient {
  /** API root, ending in `/api/v1`. */
  readonly apiUrl: string;
  /** Seconds per request. */
  readonly timeout: number;
  #token: string | undefined;
  #fetch: typeof fetch;
  #closed = new AbortController();

  /** A client; throws `TypeError` for a missing baseUrl or conflicting token aliases. */
  constructor(options: RuntimeClientOptions) {
    if (typeof options.baseUrl !== "string" || options.baseUrl === "") {
      throw new TypeError("baseUrl is required");
    }
    if (
      options.token !== undefined && options.authToken !== undefined && options.token !== options.authToken
    ) {
      throw new TypeError("token and authToken are aliases; give one, or the same value");
    }
    const timeout = options.timeout ?? 30;
    if (!(timeout > 0)) throw new RangeError("timeout must be a positive number of seconds");
    const base = options.baseUrl.replace(/\/+$/, "");
    this.apiUrl = base.endsWith("/api/v1") ? base : `${base}/api/v1`;
    this.timeout = timeout;
    this.#token = options.token ?? options.authToken;
    this.#fetch = options.fetch ?? globalThis.fetch;
  }

  /** `GET /health`. */
  health(): Promise<{ status: "healthy"; process_count: number }> {
    return this.#call("GET", "/health");
  }

  /** `GET /runtime/status`. */
  runtimeStatus(): Promise<RuntimeStatus> {
    return this.#call("GET", "/runtime/status");
  }

  /** `POST /runtime/start-all`. */
  startAll(): Promise<{ status: "started" }> {
    return this.#call("POST", "/runtime/start-all");
  }

  /** `POST /runtime/stop-all`. */
  stopAll(): Promise<{ status: "stopped" }> {
    return this.#call("POST", "/runtime/stop-all");
  }

  /** `POST /runtime/shutdown` (only on servers with a shutdown callback). */
  shutdown(): Promise<{ status: "shutting_down" }> {
    return this.#call("POST", "/runtime/shutdown");
  }

  /** `GET /openapi.json`. */
  openApiDocument(): Promise<Record<string, unknown>> {
    return this.#call("GET", "/openapi.json");
  }

  /** `GET /processes`. */
  listProcesses(): Promise<{ processes: ProcessSummary[]; total: number }> {
    return this.#call("GET", "/processes");
  }

  /** `POST /processes`. */
  deploy(name: string, config: ProcessConfigInput, options: { start?: boolean } = {}): Promise<DeployAnswer> {
    return this.#call("POST", "/processes", { name, config, start: options.start ?? false });
  }

  /** `GET /processes/{name}`. */
  getProcess(name: string): Promise<ProcessStatus> {
    return this.#call("GET", `/processes/${enc(name)}`);
  }

  /** `GET /processes/{name}/metrics`. */
  getMetrics(name: string): Promise<ProcessStatus> {
    return this.#call("GET", `/processes/${enc(name)}/metrics`);
  }

  /** `DELETE /processes/{name}`; resolves `{}`. */
  removeProcess(name: string): Promise<Record<string, never>> {
    return this.#call("DELETE", `/processes/${enc(name)}`);
  }

  /** `POST /processes/{name}/start`. */
  startProcess(name: string): Promise<{ name: string; state: ProcessState }> {
    return this.#call("POST", `/processes/${enc(name)}/start`);
  }

  /** `POST /processes/{name}/stop`. */
  stopProcess(name: string): Promise<{ name: string; state: ProcessState }> {
    return this.#call("POST", `/processes/${enc(name)}/stop`);
  }

  /** `POST /processes/{name}/restart`. */
  restartProcess(name: string): Promise<{ name: string; state: ProcessState }> {
    return this.#call("POST", `/processes/${enc(name)}/restart`);
  }

  /** `POST /processes/{name}/suspend`. */
  suspendProcess(name: string): Promise<{ name: string; suspended: true; state: ProcessState }> {
    return this.#call("POST", `/processes/${enc(name)}/suspend`);
  }

  /** `POST /processes/{name}/resume`. */
  resumeProcess(name: string): Promise<{ name: string; resumed: true; state: ProcessState }> {
    return this.#call("POST", `/processes/${enc(name)}/resume`);
  }

  /** `GET /processes/{name}/journal`: the newest `limit` (default 50) entries, oldest first. */
  getJournal(name: string, options: { limit?: number; entryType?: string } = {}): Promise<JournalAnswer> {
    const query = new URLSearchParams({ limit: String(options.limit ?? 50) });
    if (options.entryType !== undefined) query.set("type", options.entryType);
    return this.#call("GET", `/processes/${enc(name)}/journal?${query}`);
  }

  /** `GET /processes/{name}/triggers`. */
  listTriggers(name: string): Promise<{ name: string; triggers: TriggerListingAnswer[]; count: number }> {
    return this.#call("GET", `/processes/${enc(name)}/triggers`);
  }

  /** `POST /processes/{name}/triggers`: live at once when the process is started, else at its next start. */
  addTrigger(name: string, trigger: TriggerConfigInput): Promise<TriggerAddedAnswer> {
    return this.#call("POST", `/processes/${enc(name)}/triggers`, trigger);
  }

  /** `DELETE /processes/{name}/triggers/{trigger_id}`. */
  removeTrigger(name: string, triggerId: string): Promise<TriggerRemovedAnswer> {
    return this.#call("DELETE", `/processes/${enc(name)}/triggers/${enc(triggerId)}`);
  }

  /** `GET /processes/{name}/runs`: the newest `limit` (default 20, at most 100) runs, newest first. */
  listRuns(name: string, options: { limit?: number } = {}): Promise<RunListAnswer> {
    return this.#call("GET", `/processes/${enc(name)}/runs?limit=${options.limit ?? 20}`);
  }

  /** `GET /processes/{name}/runs/{run_id}`: one run with its steps. */
  getRun(name: string, runId: string): Promise<RunDetail> {
    return this.#call("GET", `/processes/${enc(name)}/runs/${enc(runId)}`);
  }

  /**
   * `GET /processes/{name}/runs/events`: run progress as it happens (run_started, text, step, run_ended),
   * until `signal` aborts, the client closes or the server ends the stream. Opening it is bounded by the
   * client timeout; the stream itself is not.
   */
  streamRuns(name: string, options: { signal?: AbortSignal } = {}): AsyncGenerator<RunProgress> {
    const url = `${this.apiUrl}/processes/${enc(name)}/runs/events`;
    return jsonData(openEventStream<RunProgress>(this.#stream(), url, options.signal));
  }

  /**
   * `GET /events`: runtime events (deploys, removals, states, runs, trigger fires, dead letters, anomalies)
   * as they happen, after the kept ones following `since`; a `reset` first when those cannot be replayed.
   */
  events(options: EventsOptions = {}): AsyncGenerator<RuntimeEvent | RuntimeEventReset> {
    return runtimeEvents(this.#stream(), this.apiUrl, options);
  }

  /** `PATCH /processes/{name}/instructions`: the next run uses them. */
  updateInstructions(name: string, instructions: string): Promise<InstructionsAnswer> {
    return this.#call("PATCH", `/processes/${enc(name)}/instructions`, { instructions });
  }

  /**
   * `PATCH /processes/{name}/budget` (live, issue 13): changes these budget fields; the whole new section
   * is validated first and answered. Limits apply at the next budget check; usage is kept.
   */
  updateBudget(name: string, fields: BudgetPatch): Promise<BudgetPatchAnswer> {
    return this.#call("PATCH", `/processes/${enc(name)}/budget`, fields);
  }

  /** `PATCH /processes/{name}/health` (live, issue 13): changes these health fields; applies immediately. */
  updateHealth(name: string, fields: HealthPatch): Promise<HealthPatchAnswer> {
    return this.#call("PATCH", `/processes/${enc(name)}/health`, fields);
  }

  /** `POST /processes/{name}/rollback`: undoes an open-mode agent's self-changes (open mode, issue 12). */
  rollback(name: string): Promise<RollbackAnswer> {
    return this.#call("POST", `/processes/${enc(name)}/rollback`);
  }

  /** `GET /processes/{name}/context`. */
  getContext(name: string): Promise<ContextAnswer> {
    return this.#call("GET", `/processes/${enc(name)}/context`);
  }

  /** `PATCH /processes/{name}/context`: writes every key of `state` or none; `null` deletes a key. */
  updateContext(name: string, state: Record<string, unknown>): Promise<ContextAnswer> {
    return this.#call("PATCH", `/processes/${enc(name)}/context`, { state });
  }

  /** `GET /processes/{name}/secrets`: metadata only. */
  listSecrets(name: string): Promise<SecretsListAnswer> {
    return this.#call("GET", `/processes/${enc(name)}/secrets`);
  }

  /** `PATCH /processes/{name}/secrets/{secret_name}`: a new value, with an optional ttl in seconds. */
  rotateSecret(
    name: string,
    secretName: string,
    options: { value: string; ttl?: number },
  ): Promise<SecretRotatedAnswer> {
    const body = options.ttl === undefined
      ? { value: options.value }
      : { value: options.value, ttl: options.ttl };
    return this.#call("PATCH", `/processes/${enc(name)}/secrets/${enc(secretName)}`, body);
  }

  /** `DELETE /processes/{name}/secrets`: every value zero-filled until the next start. */
  revokeSecrets(name: string): Promise<SecretsRevokedAnswer> {
    return this.#call("DELETE", `/processes/${enc(name)}/secrets`);
  }

  // --- Health (issue 13) ---
  /** `GET /processes/{name}/health/anomalies`: anomalies held, oldest first (400 HEALTH_DISABLED when off). */
  listAnomalies(name: string): Promise<Anomaly[]> {
    return this.#call("GET", `/processes/${enc(name)}/health/anomalies`);
  }

  /** `DELETE /processes/{name}/health/anomalies`: drops the anomalies and every cooldown. */
  clearAnomalies(name: string): Promise<AnomaliesClearedAnswer> {
    return this.#call("DELETE", `/processes/${enc(name)}/health/anomalies`);
  }

  // --- Dead letters (event ledger) ---
  /** `GET /processes/{name}/dead-letters`: the letters held, oldest first, with `count` and `total`. */
  listDeadLetters(name: string): Promise<DeadLettersAnswer> {
    return this.#call("GET", `/processes/${enc(name)}/dead-letters`);
  }

  /**
   * `POST /processes/{name}/dead-letters/redeliver`: queues the letters again (all, or `eventIds`);
   * 409 PROCESS_NOT_RUNNING when the process is not started.
   */
  redeliverDeadLetters(name: string, options: { eventIds?: string[] } = {}): Promise<RedeliveredAnswer> {
    const body = options.eventIds === undefined ? {} : { event_ids: options.eventIds };
    return this.#call("POST", `/processes/${enc(name)}/dead-letters/redeliver`, body);
  }

  /** `DELETE /processes/{name}/dead-letters`: removes every letter. */
  clearDeadLetters(name: string): Promise<DeadLettersClearedAnswer> {
    return this.#call("DELETE", `/processes/${enc(name)}/dead-letters`);
  }

  // --- Mission (issue 13) ---
  /** `GET /processes/{name}/mission`: state, objective, invocation count, evaluations (400 MISSION_DISABLED when off). */
  getMission(name: string): Promise<MissionAnswer> {
    return this.#call("GET", `/processes/${enc(name)}/mission`);
  }

  /** `POST /processes/{name}/mission/fail`: fails an active or paused mission; `reason` defaults to "failed by an operator". */
  failMission(name: string, options: { reason?: string } = {}): Promise<MissionAnswer> {
    const body = options.reason === undefined ? {} : { reason: options.reason };
    return this.#call("POST", `/processes/${enc(name)}/mission/fail`, body);
  }

  /** `POST /processes/{name}/mission/pause`: pauses an active mission (409 MISSION_STATE otherwise). */
  pauseMission(name: string): Promise<MissionAnswer> {
    return this.#call("POST", `/processes/${enc(name)}/mission/pause`);
  }

  /** `POST /processes/{name}/mission/resume`: resumes a paused mission (409 MISSION_STATE otherwise). */
  resumeMission(name: string): Promise<MissionAnswer> {
    return this.#call("POST", `/processes/${enc(name)}/mission/resume`);
  }

  /** `PATCH /processes/{name}/mission` (live): changes these mission fields; progress is kept. */
  updateMission(name: string, fields: MissionPatch): Promise<MissionPatchAnswer> {
    return this.#call("PATCH", `/processes/${enc(name)}/mission`, fields);
  }

  // --- Inbox (issue 12) ---

  /**
   * `POST /processes/{name}/messages`: queues a message the agent sees on its next run. Defaults: message type
   * `context`, priority `normal`; `ttl` 0 or missing uses the inbox's `default_ttl`.
   */
  sendMessage(name: string, content: string, options: SendMessageOptions = {}): Promise<QueuedMessage> {
    const body: Record<string, unknown> = {
      content,
      message_type: options.messageType ?? "context",
      priority: options.priority ?? "normal",
    };
    if (options.senderId !== undefined) body.sender_id = options.senderId;
    if (options.ttl !== undefined) body.ttl = options.ttl;
    if (options.metadata !== undefined) body.metadata = options.metadata;
    return this.#call("POST", `/processes/${enc(name)}/messages`, body);
  }

  /**
   * `POST /processes/{name}/ask`: asks a question and waits up to `timeout` seconds (default 120) for a run
   * to answer it. Resolves the answer text, or null on timeout. The HTTP request may take `timeout` + 10 s.
   */
  async ask(name: string, content: string, options: AskOptions = {}): Promise<string | null> {
    const timeout = options.timeout ?? 120;
    const body: Record<string, unknown> = { content, timeout, priority: options.priority ?? "normal" };
    if (options.senderId !== undefined) body.sender_id = options.senderId;
    if (options.metadata !== undefined) body.metadata = options.metadata;
    const answer = await this.#call<AskAnswer>("POST", `/processes/${enc(name)}/ask`, body, timeout + 10);
    return answer.status === "answered" ? answer.response : null;
  }

  /** `GET /processes/{name}/inbox`: pending messages and questions (secret values redacted). */
  getInbox(name: string): Promise<InboxAnswer> {
    return this.#call("GET", `/processes/${enc(name)}/inbox`);
  }

  /** `DELETE /processes/{name}/inbox`; resolves `{}`. Waiting questions end with 410 QUESTION_REMOVED. */
  clearInbox(name: string): Promise<Record<string, never>> {
    return this.#call("DELETE", `/processes/${enc(name)}/inbox`);
  }

  // --- Rewind (issue 13) ---

  /** `GET /processes/{name}/rewind/plan`: what a rewind to just before the entry would do; changes nothing. */
  rewindPlan(name: string, targetEntryId: string, options: { mode?: RewindMode } = {}): Promise<RewindPlan> {
    const query = new URLSearchParams({ target_entry_id: targetEntryId, mode: options.mode ?? "both" });
    return this.#call("GET", `/processes/${enc(name)}/rewind/plan?${query}`);
  }

  /**
   * `POST /processes/{name}/rewind`: rewinds to just before the entry (mode default `both`, actor default
   * `api`). The server waits up to 10 s for a run in flight (409 REWIND_BUSY after), so the request may take
   * that long.
   */
  rewind(
    name: string,
    targetEntryId: string,
    options: { mode?: RewindMode; actor?: string } = {},
  ): Promise<RewindResult> {
    const body = {
      target_entry_id: targetEntryId,
      mode: options.mode ?? "both",
      actor: options.actor ?? "api",
    };
    return this.#call("POST", `/processes/${enc(name)}/rewind`, body);
  }

  /** Aborts requests in flight; later calls reject. */
  close(): Promise<void> {
    this.#closed.abort(new DOMException("the client is closed", "AbortError"));
    return Promise.resolve();
  }

  /** Closes the client (for `await using`). */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #stream(): StreamConnection {
    return { fetch: this.#fetch, headers: this.#headers(), closed: this.#closed.signal };
  }

  #headers(): Record<string, string> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (this.#token !== undefined) headers.authorization = `Bearer ${this.#token}`;
    return headers;
  }

  async #call<T>(method: string, path: string, body?: unknown, timeoutSeconds = this.timeout): Promise<T> {
    if (this.#closed.signal.aborted) throw new TypeError("the client is closed");
    const headers = this.#headers();
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await fetchApi(this.#fetch, `${this.apiUrl}${path}`, {
      init: { method, headers, body: body === undefined ? undefined : JSON.stringify(body) },
      signal: this.#closed.signal,
      timeoutSeconds,
    });
    const text = await response.text();
    if (!response.ok) throw RuntimeApiError.fromAnswer(response.status, text);
    if (response.status === 204 || text === "") return {} as T;
    return JSON.parse(text) as T;
  }
}

async function* jsonData<T>(events: AsyncIterable<{ data: T }>): AsyncGenerator<T> {
  for await (const event of events) yield event.data;
}

function enc(name: string): string {
  return encodeURIComponent(name);
}
