/**
 * Test helpers: one stateless 2026-07-28 request over HTTP declaring elicitation and the Tasks
 * extension, and the extension's own wire schemas to check answers against.
 *
 * @module
 */

import assert from "node:assert/strict";
import {
  CreateTaskResultV2Schema,
  GetTaskResultV2Schema,
  UpdateTaskResultV2Schema,
} from "@modelcontextprotocol/ext-tasks/core/v2";
import { answerOf, modernPost, type RpcAnswer } from "../modern/_test_modern.ts";
import { TASKS_EXTENSION } from "./task_requests.ts";

const CAPABILITIES = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } };

/**
 * The JSON-RPC answer to `method` with `params`, posted to the endpoint `url` over a real socket, as
 * the modern leg's test helpers build the request (plus `Mcp-Name` for the `tasks/*` methods).
 */
export async function modern(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  capabilities: Record<string, unknown> = CAPABILITIES,
): Promise<RpcAnswer> {
  const taskId = method.startsWith("tasks/") && typeof params.taskId === "string" ? params.taskId : undefined;
  const request = modernPost(method, params, {
    capabilities,
    headers: taskId === undefined ? {} : { "mcp-name": taskId },
  });
  return await answerOf(
    await fetch(url, { method: "POST", headers: request.headers, body: await request.text() }),
  );
}

/** What the checks need of a schema (the extension's zod types are too deep to instantiate here). */
interface WireSchema {
  safeParse(value: unknown): { success: boolean; error?: { message: string } };
}

const WIRE: Record<"create" | "get" | "ack", WireSchema> = {
  create: CreateTaskResultV2Schema as unknown as WireSchema,
  get: GetTaskResultV2Schema as unknown as WireSchema,
  ack: UpdateTaskResultV2Schema as unknown as WireSchema,
};

/**
 * `value`, after checking it against the Tasks extension's own wire schema (from
 * `@modelcontextprotocol/ext-tasks`, the extension's reference client): a `CreateTaskResult`, a
 * `tasks/get` result or a `tasks/update` / `tasks/cancel` acknowledgement.
 */
export function onTheWire<T>(kind: "create" | "get" | "ack", value: T): T {
  const parsed = WIRE[kind].safeParse(value);
  assert.ok(
    parsed.success,
    `not a ${kind} result on the wire: ${JSON.stringify(value)} ${parsed.error?.message ?? ""}`,
  );
  return value;
}
