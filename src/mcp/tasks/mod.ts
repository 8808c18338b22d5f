/**
 * The Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) for 2026-07-28 requests: a tool
 * declared with `task: "optional"` or `"required"` calls `startTask(ctx)` to hand the rest of its
 * call to a task; the client polls `tasks/get`, answers input through `tasks/update`, and may
 * `tasks/cancel`.
 *
 * @module
 */

export { bindTasks, TASKS_CAPABILITY } from "./bind_tasks.ts";
export { startTask } from "./start_task.ts";
export { callToolWithTask, type CreateTaskAnswer } from "./call_tool_with_task.ts";
export {
  cancelTask,
  declaresTasks,
  getTask,
  type GetTaskAnswer,
  type TaskAck,
  type TaskRequestInfo,
  TASKS_EXTENSION,
  updateTask,
  watchTasks,
} from "./task_requests.ts";
export type { DetailedTaskView, TaskError, TaskStatus, TaskView } from "./task_view.ts";
export { type TaskListener, TaskStore, type TaskStoreOptions } from "./task_store.ts";
