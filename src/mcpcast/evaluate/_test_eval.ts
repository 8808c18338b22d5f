/**
 * Test helpers for the evaluation: a small pet-store spec and its plan, and a scripted local model
 * server that writes tasks and drives the agent.
 *
 * @module
 */

import { type ModelClient, ProviderRegistry } from "../../models/mod.ts";
import { type RecordedRequest, type ScriptedReply, startModelServer } from "../../models/testing/mod.ts";
import { envOf, openapi } from "../_test_parse.ts";
import { parseSpec } from "../parse/mod.ts";
import { buildPlan, type McpcastPlan } from "../plan/mod.ts";
import type { AuthMode, Operation } from "../types.ts";
import type { EvalTask } from "./types.ts";

const PET = {
  type: "object",
  properties: { id: { type: "integer", example: 7 }, name: { type: "string", example: "Rex" } },
};

function json(schema: unknown) {
  return { content: { "application/json": { schema } } };
}

const PET_ID = { name: "petId", in: "path", required: true, schema: { type: "string" } };

/** The pet-store spec: list, create, get, delete pets, and a mine-only list at `/pets/mine`. */
export function petDocument(baseUrl: string): Record<string, unknown> {
  return openapi({
    "/pets": {
      get: {
        operationId: "listPets",
        summary: "List pets",
        parameters: [{ name: "limit", in: "query", schema: { type: "integer" } }],
        responses: { 200: { description: "ok", ...json({ type: "array", items: PET }) } },
      },
      post: {
        operationId: "createPet",
        summary: "Create a pet",
        requestBody: {
          required: true,
          ...json({ type: "object", required: ["name"], properties: { name: { type: "string" } } }),
        },
        responses: { 201: { description: "created", ...json(PET) } },
      },
    },
    "/pets/mine": {
      get: { operationId: "listMyPets", summary: "List my pets", responses: { 200: { description: "ok" } } },
    },
    "/pets/{petId}": {
      get: {
        operationId: "getPet",
        summary: "Get a pet",
        parameters: [PET_ID],
        responses: { 200: { description: "ok", ...json(PET) } },
      },
      delete: {
        operationId: "deletePet",
        summary: "Delete a pet",
        parameters: [PET_ID],
        responses: { 204: { description: "gone" } },
      },
    },
  }, { servers: [{ url: baseUrl }] });
}

/** The pet plan (profile full) and the spec's operations. */
export async function petPlan(
  options: { baseUrl?: string; auth?: AuthMode } = {},
): Promise<{ plan: McpcastPlan; operations: Operation[] }> {
  const spec = await parseSpec(petDocument(options.baseUrl ?? "https://api.example.com/v1"));
  const plan = buildPlan(spec, { profile: "full", auth: options.auth ?? "none" });
  return { plan, operations: spec.operations };
}

/** The user prompt of a recorded model request. */
export function userPrompt(request: RecordedRequest): string {
  return request.messages.find((message) => message.role === "user")?.content ?? "";
}

/** Whether `request` is a task-writing request (no tools offered). */
export function isTaskRequest(request: RecordedRequest): boolean {
  return request.tools.length === 0;
}

/** A tool call the scripted agent makes. */
export interface ScriptedCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** What the scripted model does. */
export interface ModelScript {
  /** The reply to a task-writing request (default: no tasks). */
  tasks?: (request: RecordedRequest) => ScriptedReply;
  /** Per task prompt, the calls the agent makes one turn each, then it answers "Done."; or a reply. */
  agent?: Record<string, ScriptedCall[] | ScriptedReply>;
}

function agentReply(request: RecordedRequest, script: ModelScript): ScriptedReply {
  const plan = script.agent?.[userPrompt(request)] ?? [];
  if (!Array.isArray(plan)) return plan;
  const done = request.messages.filter((message) => message.role === "tool").length;
  return done < plan.length ? { toolCalls: [plan[done]] } : { text: "Done." };
}

/** A scripted local model server with its env lookup and client. */
export interface ScriptedModel extends AsyncDisposable {
  /** Requests received. */
  readonly requests: RecordedRequest[];
  /** Env lookup pointing `openai-compatible` at the server. */
  readonly env: (name: string) => string | undefined;
  /** The model string to use. */
  readonly model: string;
  /** A client for the agent. */
  readonly client: ModelClient;
}

/** Starts a scripted model server. */
export function scriptedModel(script: ModelScript): ScriptedModel {
  const server = startModelServer({
    respond: (request) =>
      isTaskRequest(request) ? (script.tasks?.(request) ?? { text: "{}" }) : agentReply(request, script),
  });
  const env = envOf({ OPENAI_COMPATIBLE_BASE_URL: server.url });
  const model = "openai-compatible:scripted";
  return {
    requests: server.requests,
    env,
    model,
    client: new ProviderRegistry().resolve(model, { env, retry: { maxRetries: 0 } }),
    [Symbol.asyncDispose]: () => server.close(),
  };
}

/** A task-writing reply listing `tasks`. */
export function tasksReply(tasks: readonly Partial<EvalTask>[]): ScriptedReply {
  return { text: "Here you go:\n```json\n" + JSON.stringify({ tasks }) + "\n```" };
}
