/**
 * Test helper: one stateless 2026-07-28 request over HTTP, as a client sends it (the `Mcp-Method` and
 * `Mcp-Name` headers mirror the body), declaring elicitation and the Tasks extension; and the
 * extension's own wire schemas to check answers against.
 *
 * @module
 */

import assert from "node:assert/strict";
import {
  CreateTaskResultV2Schema,
  GetTaskResultV2Schema,
  UpdateTaskResultV2Schema,
} from "@modelcontextprotocol/ext-tasks/core/v2";
import { TASKS_EXTENSION } from "./task_requests.ts";

const CAPABILITIES = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } };

/** The JSON-RPC answer to `method` with `params`, from the endpoint `url`. */
export async function modern(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  capabilities: Record<string, unknown> = CAPABILITIES,
) {
  const name = typeof params.name === "string"
    ? params.name
    : typeof params.taskId === "string"
    ? params.taskId
    : undefined;
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(name === undefined ? {} : { "mcp-name": name }),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "test", version: "1.0.0" },
          "io.modelcontextprotocol/clientCapabilities": capabilities,
        },
      },
    }),
  });
  const text = await response.text();
  const data = text.startsWith("{")
    ? text
    : text.split("\n").find((line) => line.startsWith("data: {"))!.slice(6);
  return JSON.parse(data) as { result?: Record<string, unknown>; error?: { code: number } };
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
