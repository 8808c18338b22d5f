/**
 * The tasks of an evaluation: written by a model from the tool catalogue (realistic single-tool user
 * requests spread across the tools), or given as a list (e.g. loaded from `eval/tasks.yaml`).
 *
 * Generated items that are not objects with a prompt and a listed `expected_tool` are discarded;
 * missing or repeated ids become `t1`, `t2`, ...; at most the number asked for is kept. A given list
 * must be valid as a whole.
 *
 * @module
 */

import { McpcastError } from "../errors.ts";
import { type Completer, jsonObjectIn } from "../model/mod.ts";
import type { McpcastPlan, ToolPlan } from "../plan/mod.ts";
import type { EvalTask } from "./types.ts";

/** Default number of generated tasks. */
export const DEFAULT_TASKS = 20;
/** Most tasks one evaluation runs. */
export const MAX_TASKS = 500;

const SYSTEM_PROMPT = [
  "You test how well an AI agent can use a set of tools. Write requests a real user of this API would",
  "type to an assistant: concrete (with plausible names, ids and values, taken from the tool examples",
  "where they exist), each one answered by a single call of one tool, phrased the way people talk rather",
  "than naming the tool or its parameters. Spread the requests across the tools.",
  'Reply with one JSON object and nothing else: {"tasks": [{"id": "t1", "prompt": "...",',
  '"expected_tool": "<tool name>", "rationale": "<why that tool>"}]}.',
].join(" ");

/** One catalogue line: what the model needs to write requests for `tool`. */
function catalogueLine(tool: ToolPlan): string {
  const params: Record<string, { required: boolean; type: unknown }> = {};
  for (const [name, param] of Object.entries(tool.params)) {
    if (param.hidden) continue;
    params[name] = { required: param.required, type: param.json_schema.type ?? "string" };
  }
  return JSON.stringify({
    name: tool.name,
    risk: tool.risk,
    description: tool.description,
    params,
    example: tool.example,
  });
}

/** The task-writing prompt for `tools` of `plan`. */
export function taskPrompt(plan: McpcastPlan, tools: readonly ToolPlan[], count: number): string {
  return [
    `Write ${count} tasks for this tool set (API: ${plan.api.name}).`,
    "Tools, one JSON object per line:",
    ...tools.map(catalogueLine),
  ].join("\n");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function nonEmpty(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}

/** The valid tasks among `items` (see the module doc), at most `count`. */
export function keepTasks(items: readonly unknown[], tools: ReadonlySet<string>, count: number): EvalTask[] {
  const kept = items.filter((item): item is Record<string, unknown> =>
    isRecord(item) && nonEmpty(item.prompt) && typeof item.expected_tool === "string" &&
    tools.has(item.expected_tool)
  ).slice(0, count);
  const taken = new Set<string>();
  const wanted = kept.map((item) => nonEmpty(item.id) ? item.id.trim() : undefined);
  const keepIds = wanted.map((id, i) => id !== undefined && wanted.indexOf(id) === i);
  wanted.forEach((id, i) => keepIds[i] && taken.add(id!));
  let next = 1;
  return kept.map((item, i) => {
    let id = wanted[i];
    if (!keepIds[i]) {
      while (taken.has(`t${next}`)) next++;
      id = `t${next}`;
      taken.add(id);
    }
    const rationale = typeof item.rationale === "string" ? item.rationale.trim() : "";
    return {
      id: id!,
      prompt: (item.prompt as string).trim(),
      expected_tool: item.expected_tool as string,
      ...(rationale === "" ? {} : { rationale }),
    };
  });
}

/**
 * `count` tasks for `tools`, written by `complete`.
 *
 * @throws {McpcastError} when the reply holds no JSON object or no usable task.
 */
export async function generateTasks(
  plan: McpcastPlan,
  tools: readonly ToolPlan[],
  options: { complete: Completer; count: number; signal?: AbortSignal },
): Promise<EvalTask[]> {
  const reply = await options.complete(SYSTEM_PROMPT, taskPrompt(plan, tools, options.count), options.signal);
  const object = jsonObjectIn(reply);
  if (object === undefined) {
    throw new McpcastError("task generation failed: the model's reply did not contain a JSON object");
  }
  const items = Array.isArray(object.tasks) ? object.tasks : [];
  const tasks = keepTasks(items, new Set(tools.map((tool) => tool.name)), options.count);
  if (tasks.length === 0) {
    throw new McpcastError(
      "task generation failed: the model wrote no usable task (each needs a prompt and an " +
        "expected_tool the server lists)",
    );
  }
  return tasks;
}

/**
 * `tasks` checked as a whole: each with an id, a prompt and a listed `expected_tool`, ids unique.
 *
 * @throws {McpcastError} naming the first bad entry by position.
 */
export function checkTasks(tasks: readonly unknown[], tools: ReadonlySet<string>): EvalTask[] {
  if (tasks.length === 0) throw new McpcastError("the task list is empty");
  if (tasks.length > MAX_TASKS) throw new McpcastError(`at most ${MAX_TASKS} tasks can run at once`);
  const seen = new Set<string>();
  return tasks.map((task, index) => {
    const where = `task ${index + 1}`;
    if (!isRecord(task)) throw new McpcastError(`${where} must be an object`);
    const unknown = Object.keys(task).filter((key) =>
      !["id", "prompt", "expected_tool", "rationale"].includes(key)
    );
    if (unknown.length > 0) throw new McpcastError(`${where} has unknown fields: ${unknown.join(", ")}`);
    if (!nonEmpty(task.id)) throw new McpcastError(`${where} needs a non-empty "id"`);
    if (seen.has(task.id)) throw new McpcastError(`${where} repeats the id '${task.id}'`);
    seen.add(task.id);
    if (!nonEmpty(task.prompt)) throw new McpcastError(`${where} ('${task.id}') needs a non-empty "prompt"`);
    if (typeof task.expected_tool !== "string" || !tools.has(task.expected_tool)) {
      throw new McpcastError(`${where} ('${task.id}') expects a tool the server does not list`);
    }
    if (task.rationale !== undefined && typeof task.rationale !== "string") {
      throw new McpcastError(`${where} ('${task.id}'): "rationale" must be text`);
    }
    return {
      id: task.id,
      prompt: task.prompt,
      expected_tool: task.expected_tool,
      ...(task.rationale === undefined ? {} : { rationale: task.rationale }),
    };
  });
}
