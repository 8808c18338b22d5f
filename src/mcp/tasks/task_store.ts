/**
 * The tasks of one tool server, in memory: bounded (the oldest ended tasks make room; when every
 * kept task is still running a new one is refused), each kept `ttlMs` after it ends, and visible
 * only to the caller that created it (its principal key: tenant and client id, or anonymous).
 *
 * @module
 */

import { ToolError } from "../errors.ts";
import { TaskRecord } from "./task_record.ts";
import type { DetailedTaskView } from "./task_view.ts";

/** Options for a {@linkcode TaskStore}. */
export interface TaskStoreOptions {
  /** How long a task is kept after it ends, in milliseconds (a positive integer). @default 1800000 (30 minutes) */
  ttlMs?: number;
  /** The poll interval suggested to clients, in milliseconds (a positive integer). @default 1000 */
  pollIntervalMs?: number;
  /** At most this many tasks are kept, running and ended together. @default 1000 */
  maxTasks?: number;
}

/** A change of a task, for status notifications. */
export type TaskListener = (task: DetailedTaskView, owner: string) => void;

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) {
    throw new TypeError(`tasks: ${name} must be a positive integer`);
  }
  return value;
}

/** The tasks of one server. */
export class TaskStore {
  /** Retention after the end, in milliseconds. */
  readonly ttlMs: number;
  /** Suggested poll interval, in milliseconds. */
  readonly pollIntervalMs: number;
  /** The most tasks kept. */
  readonly maxTasks: number;
  #tasks = new Map<string, TaskRecord>();
  #listeners = new Set<TaskListener>();

  /** An empty store. */
  constructor(options: TaskStoreOptions = {}) {
    this.ttlMs = positiveInteger(options.ttlMs, 1_800_000, "ttlMs");
    this.pollIntervalMs = positiveInteger(options.pollIntervalMs, 1000, "pollIntervalMs");
    this.maxTasks = positiveInteger(options.maxTasks, 1000, "maxTasks");
  }

  /** How many tasks are kept now (expired ones are dropped first). */
  get size(): number {
    this.#sweep();
    return this.#tasks.size;
  }

  /**
   * A new working task owned by `owner`, kept before this returns (a `tasks/get` right after finds
   * it). Throws the tool error `CONCURRENCY_LIMIT_EXCEEDED` when the store is full of running tasks.
   */
  create(owner: string, tool: string): TaskRecord {
    this.#sweep();
    if (this.#tasks.size >= this.maxTasks) this.#evictEnded();
    if (this.#tasks.size >= this.maxTasks) {
      throw new ToolError("CONCURRENCY_LIMIT_EXCEEDED", "Too many running tasks; try again later", {
        retryable: true,
      });
    }
    const record = new TaskRecord({
      taskId: crypto.randomUUID(),
      owner,
      tool,
      ttlMs: this.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
      onChange: (changed) => this.#changed(changed),
    });
    this.#tasks.set(record.taskId, record);
    return record;
  }

  /** The task `taskId` when `owner` created it and it has not expired; otherwise undefined. */
  get(taskId: string, owner: string): TaskRecord | undefined {
    const record = this.#kept(taskId);
    return record?.owner === owner ? record : undefined;
  }

  /** The tool a kept task runs (to pick the auth that identifies its caller), else undefined. */
  toolOf(taskId: string): string | undefined {
    return this.#kept(taskId)?.tool;
  }

  #kept(taskId: string): TaskRecord | undefined {
    const record = this.#tasks.get(taskId);
    if (record && record.expiresAt <= Date.now()) {
      this.#tasks.delete(taskId);
      return undefined;
    }
    return record;
  }

  /** Calls `listener` after every change of any task; returns the function that stops it. */
  watch(listener: TaskListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(record: TaskRecord): void {
    if (this.#listeners.size === 0) return;
    const task = record.detailed();
    for (const listener of this.#listeners) {
      try {
        listener(task, record.owner);
      } catch {
        // A listener's failure is its own; the task goes on.
      }
    }
  }

  #sweep(): void {
    const now = Date.now();
    for (const [taskId, record] of this.#tasks) {
      if (record.expiresAt <= now) this.#tasks.delete(taskId);
    }
  }

  /** Drops ended tasks, oldest first, until there is room for one more. */
  #evictEnded(): void {
    const ended = [...this.#tasks.values()].filter((record) => record.terminal)
      .sort((a, b) => a.expiresAt - b.expiresAt);
    for (const record of ended) {
      if (this.#tasks.size < this.maxTasks) return;
      this.#tasks.delete(record.taskId);
    }
  }
}
