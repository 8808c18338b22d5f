/**
 * Inbox routes (spec 000, "Messages and inbox"): `POST /processes/{name}/messages`, `POST
 * /processes/{name}/ask` (long poll), `GET|DELETE /processes/{name}/inbox`.
 *
 * Checks, in order: 404 PROCESS_NOT_FOUND; without an inbox 400 INBOX_DISABLED (GET answers `enabled:
 * false` with zero counts instead); a stopped or failed process 409 PROCESS_NOT_RUNNING (POST only);
 * undeclared body fields 422 UNKNOWN_FIELD; no `content` 422 MISSING_FIELD; then the inbox's own checks:
 * 422 INVALID_TYPE, 422 INVALID_FIELD, 429 RATE_LIMITED, 422 MESSAGE_REJECTED, 409 INBOX_FULL. A waiting
 * `/ask` ends with 200 (`answered` or `timeout`), 410 QUESTION_REMOVED when its question is evicted or
 * cleared, or 422 MESSAGE_REJECTED when a scanner loaded at start flags it. Refusals caused by the inbox
 * answer fixed messages and an error id. Answers and listings pass through the secret redactor.
 *
 * @module
 */

import type { Context } from "hono";
import { redactStrings } from "../../_util/redact_strings.ts";
import { type AgentProcess, type Inbox, RuntimeError } from "../../runtime/mod.ts";
import type { ApiEnv } from "../context.ts";
import { errorResponses, jsonContent, NameParamSchema } from "../schemas.ts";
import {
  AskAnswerSchema,
  AskBodySchema,
  InboxAnswerSchema,
  MessageBodySchema,
  QueuedSchema,
} from "../inbox_schemas.ts";
import { missingField, refuseUnknownFields } from "./_body_fields.ts";
import { findProcess, type RouteContext } from "./route_context.ts";

const MESSAGE_FIELDS = ["content", "message_type", "priority", "sender_id", "ttl", "metadata"];
const ASK_FIELDS = ["content", "timeout", "priority", "sender_id", "metadata"];

/** The process's inbox, or 400 INBOX_DISABLED. */
function inboxOf(process: AgentProcess): Inbox {
  if (process.inbox) return process.inbox;
  throw new RuntimeError("INBOX_DISABLED", `process ${process.name} has no inbox`, {
    details: { process: process.name },
  });
}

/** The process, its inbox (open for messages) and the checked-for-shape body. */
function openInbox(ctx: RouteContext, c: Context<ApiEnv>, fields: readonly string[]) {
  const process = findProcess(ctx.runtime, c.req.param("name") ?? "");
  const inbox = inboxOf(process);
  inbox.assertOpen();
  const body = c.get("body") ?? {};
  refuseUnknownFields(body, fields);
  if (body.content === undefined) throw missingField("content", "a non-empty string");
  const redact = <T>(value: T): T => redactStrings(value, (text) => process.secrets.redact(text));
  return { process, inbox, body, redact };
}

/** Adds the inbox routes. */
export function registerInboxRoutes(ctx: RouteContext): void {
  const { route, runtime } = ctx;
  route({
    method: "post",
    path: "/api/v1/processes/{name}/messages",
    summary: "Queue a message for the agent's next run",
    operationId: "sendMessage",
    takesBody: true,
    request: {
      params: NameParamSchema,
      body: { content: { "application/json": { schema: MessageBodySchema } }, required: true },
    },
    responses: {
      201: jsonContent(QueuedSchema, "Queued"),
      ...errorResponses(400, 401, 404, 409, 422, 429),
    },
  }, async (c) => {
    const { inbox, body } = openInbox(ctx, c, MESSAGE_FIELDS);
    const queued = await inbox.send(body as unknown as Parameters<Inbox["send"]>[0]);
    return c.json(queued, 201);
  });

  route({
    method: "post",
    path: "/api/v1/processes/{name}/ask",
    summary: "Ask the agent a question and wait for the answer (long poll)",
    description: "Answers 200 with status answered, or timeout and a null response when no run answered " +
      "in time. The agent sees the question on its next run.",
    operationId: "ask",
    takesBody: true,
    request: {
      params: NameParamSchema,
      body: { content: { "application/json": { schema: AskBodySchema } }, required: true },
    },
    responses: {
      200: jsonContent(AskAnswerSchema, "Answered, or timed out"),
      ...errorResponses(400, 401, 404, 409, 410, 422, 429),
    },
  }, async (c) => {
    const { inbox, body, redact } = openInbox(ctx, c, ASK_FIELDS);
    const signal = c.req.raw.signal;
    try {
      const answer = await inbox.ask(body as unknown as Parameters<Inbox["ask"]>[0], { signal });
      return c.json(redact(answer));
    } catch (error) {
      // The caller went away: nobody reads this answer, and the question stays in the inbox.
      if (signal.aborted && !(error instanceof RuntimeError)) return new Response(null, { status: 499 });
      throw error;
    }
  });

  route({
    method: "get",
    path: "/api/v1/processes/{name}/inbox",
    summary: "List the pending messages and questions (secret values redacted)",
    operationId: "getInbox",
    request: { params: NameParamSchema },
    responses: { 200: jsonContent(InboxAnswerSchema, "The inbox"), ...errorResponses(401, 404) },
  }, (c) => {
    const process = findProcess(runtime, c.req.param("name") ?? "");
    const items = process.inbox?.list() ?? [];
    const questions = items.filter((i) => i.message_type === "question");
    return c.json({
      name: process.name,
      enabled: process.inbox !== undefined,
      count: items.length,
      pending_messages: items.length - questions.length,
      pending_questions: questions.filter((i) => i.status === "queued").length,
      messages: redactStrings(items, (text) => process.secrets.redact(text)),
    });
  });

  route({
    method: "delete",
    path: "/api/v1/processes/{name}/inbox",
    summary: "Remove every message; waiting questions end with 410 QUESTION_REMOVED",
    operationId: "clearInbox",
    request: { params: NameParamSchema },
    responses: { 204: { description: "Cleared" }, ...errorResponses(400, 401, 404) },
  }, async (c) => {
    const process = findProcess(runtime, c.req.param("name") ?? "");
    const inbox = inboxOf(process);
    inbox.clear();
    await inbox.written();
    return c.body(null, 204);
  });
}
