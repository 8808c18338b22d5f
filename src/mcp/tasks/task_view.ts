/**
 * What a task looks like on the wire (SEP-2663): the `Task` fields every task answer carries, and the
 * DetailedTask `tasks/get` answers (pending input, result or error by status).
 *
 * @module
 */

import type { PendingInput } from "../input_required.ts";

/** A task's status. */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** A protocol-level error, as a failed task carries it. */
export type TaskError = {
  /** JSON-RPC error code. */
  code: number;
  /** Error message. */
  message: string;
  /** Extra data. */
  data?: unknown;
};

/** The task fields every task answer carries (SEP-2663 `Task`). */
export type TaskView = {
  /** The task id (random, unguessable). */
  taskId: string;
  /** Current status. */
  status: TaskStatus;
  /** What the task is doing (its latest progress message). */
  statusMessage?: string;
  /** ISO-8601 creation time. */
  createdAt: string;
  /** ISO-8601 time of the latest change. */
  lastUpdatedAt: string;
  /** How long the task is kept after it ends, in milliseconds. */
  ttlMs: number;
  /** How often to poll `tasks/get`, in milliseconds. */
  pollIntervalMs: number;
};

/** `tasks/get`'s view: the task, plus its pending input, result or error by status. */
export type DetailedTaskView = TaskView & {
  /** The requests the task waits for, by key (status `input_required`). */
  inputRequests?: Record<string, PendingInput>;
  /** The tool's result (status `completed`). */
  result?: Record<string, unknown>;
  /** The protocol error (status `failed`). */
  error?: TaskError;
};
