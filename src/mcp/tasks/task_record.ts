/**
 * One task of the Tasks extension (`io.modelcontextprotocol/tasks`): its status, the input it waits
 * for, and its outcome, as `tasks/get` shows them (SEP-2663's DetailedTask).
 *
 * Status moves `working` ⇄ `input_required`, then to one terminal status: `completed` (the tool's
 * result, an `isError` result included), `failed` (a protocol-level error: `code`, `message`, `data`)
 * or `cancelled`. A terminal task never changes again.
 *
 * @module
 */

import { ToolError } from "../errors.ts";
import type { PendingInput } from "../input_required.ts";
import { validAnswer } from "../modern/input_rounds.ts";
import type { DetailedTaskView, TaskError, TaskStatus, TaskView } from "./task_view.ts";

/** Fields of a new {@linkcode TaskRecord}. */
export interface TaskRecordInit {
  /** The task id. */
  taskId: string;
  /** Who may see the task (the caller's principal key). */
  owner: string;
  /** The tool the task runs. */
  tool: string;
  /** Retention after the end, in milliseconds. */
  ttlMs: number;
  /** Suggested poll interval, in milliseconds. */
  pollIntervalMs: number;
  /** Called after every change. */
  onChange?: (record: TaskRecord) => void;
}

interface Waiting {
  request: PendingInput;
  resolve: (answer: unknown) => void;
  reject: (error: unknown) => void;
}

const TERMINAL: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);

/** One task's state. */
export class TaskRecord {
  /** The task id. */
  readonly taskId: string;
  /** The caller's principal key. */
  readonly owner: string;
  /** The tool the task runs. */
  readonly tool: string;
  /** Aborted when the task is cancelled. */
  readonly cancelled: AbortSignal;
  #init: TaskRecordInit;
  #abort = new AbortController();
  #created = Date.now();
  #updated = this.#created;
  #status: TaskStatus = "working";
  #message?: string;
  #result?: Record<string, unknown>;
  #error?: TaskError;
  #waiting = new Map<string, Waiting>();

  /** A working task. */
  constructor(init: TaskRecordInit) {
    this.taskId = init.taskId;
    this.owner = init.owner;
    this.tool = init.tool;
    this.cancelled = this.#abort.signal;
    this.#init = init;
  }

  /** Current status. */
  get status(): TaskStatus {
    return this.#status;
  }

  /** Whether the task has ended. */
  get terminal(): boolean {
    return TERMINAL.has(this.#status);
  }

  /** When the task's retention ends (epoch ms), or Infinity while it runs. */
  get expiresAt(): number {
    return this.terminal ? this.#updated + this.#init.ttlMs : Infinity;
  }

  /** Records a progress message. */
  report(message: string): void {
    if (this.terminal) return;
    this.#message = message;
    this.#touch();
  }

  /** Parks the task in `input_required` until {@linkcode answer} brings `key`'s answer. */
  ask(key: string, request: PendingInput): Promise<unknown> {
    if (this.terminal) return Promise.reject(new ToolError("CANCELLED", "The task has ended."));
    if (this.#waiting.has(key)) {
      return Promise.reject(new TypeError(`${request.method}: the input key '${key}' is already pending`));
    }
    const { promise, resolve, reject } = Promise.withResolvers<unknown>();
    this.#waiting.set(key, { request, resolve, reject });
    this.#status = "input_required";
    this.#touch();
    return promise;
  }

  /**
   * Delivers answers (`tasks/update`): each pending key with a well-formed answer resumes its asker;
   * unknown keys are ignored. Throws a `TypeError` naming a pending key whose answer is malformed.
   */
  answer(responses: Readonly<Record<string, unknown>>): void {
    const settled: [Waiting, unknown][] = [];
    for (const [key, value] of Object.entries(responses)) {
      const waiting = this.#waiting.get(key);
      if (!waiting) continue;
      const answer = validAnswer(waiting.request.method, value);
      if (answer === undefined) {
        throw new TypeError(`inputResponses.${key} is not a ${waiting.request.method} result`);
      }
      settled.push([waiting, answer]);
      this.#waiting.delete(key);
    }
    if (settled.length === 0) return;
    if (this.#waiting.size === 0 && !this.terminal) this.#status = "working";
    this.#touch();
    for (const [waiting, answer] of settled) waiting.resolve(answer);
  }

  /** Ends the task with the tool's result. */
  complete(result: Record<string, unknown>): void {
    this.#end("completed", () => this.#result = result);
  }

  /** Ends the task with a protocol-level error. */
  fail(error: TaskError): void {
    this.#end("failed", () => this.#error = error);
  }

  /** Cancels the task: aborts its call and rejects the input it waits for. Idempotent. */
  cancel(): void {
    if (this.terminal) return;
    this.#end("cancelled", () => {});
    this.#abort.abort(new ToolError("CANCELLED", "The task was cancelled."));
  }

  #end(status: TaskStatus, keep: () => void): void {
    if (this.terminal) return;
    keep();
    this.#status = status;
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    this.#touch();
    for (const entry of waiting) entry.reject(new ToolError("CANCELLED", "The task has ended."));
  }

  #touch(): void {
    this.#updated = Math.max(Date.now(), this.#updated);
    this.#init.onChange?.(this);
  }

  /** The task fields (a `CreateTaskResult`'s body). */
  view(): TaskView {
    return {
      taskId: this.taskId,
      status: this.#status,
      ...(this.#message === undefined ? {} : { statusMessage: this.#message }),
      createdAt: new Date(this.#created).toISOString(),
      lastUpdatedAt: new Date(this.#updated).toISOString(),
      ttlMs: this.#init.ttlMs,
      pollIntervalMs: this.#init.pollIntervalMs,
    };
  }

  /** The task with what its status carries (`tasks/get`, status notifications). */
  detailed(): DetailedTaskView {
    const view: DetailedTaskView = this.view();
    if (this.#status === "input_required") {
      view.inputRequests = Object.fromEntries([...this.#waiting].map(([key, entry]) => [key, entry.request]));
    } else if (this.#status === "completed") view.result = this.#result;
    else if (this.#status === "failed") view.error = this.#error;
    return view;
  }
}
