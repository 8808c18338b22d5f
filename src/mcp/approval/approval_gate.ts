/**
 * Server-side approval: tools registered with `requiresApproval: true` run only after an
 * {@linkcode Approver} (a human, through a queue or the calling client) has said yes.
 *
 * @module
 */

import { checkOptionKeys } from "../../_util/option_keys.ts";
import { withRole } from "../chain.ts";
import { ToolError } from "../errors.ts";
import { runGuards } from "../guards.ts";
import { isInputRequired } from "../input_required.ts";
import { pendingMethods } from "../middleware/pending_inputs.ts";
import type { RequestContext } from "../request_context.ts";
import type { Middleware } from "../types.ts";
import {
  type ApprovalDecision,
  type ApprovalRequest,
  type Approver,
  type ApproverFunction,
  normalizeDecision,
  toApprover,
  type WithdrawReason,
} from "./approver.ts";
import { type ApprovalRecord, approvalRequestId, carryingApproval, noteApproval } from "./approval_record.ts";

export type {
  ApprovalDecision,
  ApprovalMetadata,
  ApprovalRequest,
  Approver,
  ApproverFunction,
  WithdrawReason,
} from "./approver.ts";

/** Options for {@linkcode approvalGate}. */
export interface ApprovalGateOptions {
  /** Seconds to wait for a decision, in (0, 86400]. @default 300 */
  timeout?: number;
  /** What an unanswered request becomes: `"deny"` or `"allow"`. @default "deny" */
  onTimeout?: "deny" | "allow";
  /** Show the call's arguments to the approver; `false` sends `{}`. @default true */
  includeArguments?: boolean;
}

const OPTION_KEYS = {
  timeout: true,
  onTimeout: true,
  includeArguments: true,
} satisfies Record<keyof ApprovalGateOptions, true>;
const MAX_TIMEOUT = 86_400;

function checkOptions(options: ApprovalGateOptions): Required<ApprovalGateOptions> {
  checkOptionKeys(options, {
    owner: "approvalGate",
    keys: OPTION_KEYS,
    unknown: "listed",
    notObject: true,
    arrays: true,
  });
  const { timeout = 300, onTimeout = "deny", includeArguments = true } = options;
  if (typeof timeout !== "number" || !(timeout > 0 && timeout <= MAX_TIMEOUT)) {
    throw new TypeError(
      `approvalGate: timeout must be a number of seconds in (0, ${MAX_TIMEOUT}], got ${String(timeout)}`,
    );
  }
  if (onTimeout !== "deny" && onTimeout !== "allow") {
    throw new TypeError(
      `approvalGate: onTimeout must be "deny" or "allow", got ${JSON.stringify(onTimeout)}`,
    );
  }
  if (typeof includeArguments !== "boolean") {
    throw new TypeError("approvalGate: includeArguments must be a boolean");
  }
  return { timeout, onTimeout, includeArguments };
}

/** A copy of the call's arguments, so an approver cannot change what the handler receives. */
function copyArguments(args: Record<string, unknown>): Record<string, unknown> {
  try {
    return structuredClone(args);
  } catch {
    return { ...args };
  }
}

function buildRequest(ctx: RequestContext, settings: Required<ApprovalGateOptions>): ApprovalRequest {
  const definition = ctx.definition;
  const request: ApprovalRequest = {
    request_id: approvalRequestId(ctx),
    tool_name: definition.name,
    arguments: settings.includeArguments ? copyArguments(ctx.arguments) : {},
    caller_user_id: ctx.clientId,
    context_summary: `server-side approval gate on '${ctx.serverName}'`,
    timeout: settings.timeout,
    metadata: {
      server: ctx.serverName,
      mcp_request_id: ctx.requestId,
      client_id: ctx.clientId,
      tenant_id: ctx.tenantId,
      subject: ctx.client?.subject,
      issuer: ctx.client?.issuer,
    },
  };
  if (definition.kind === "tool" && definition.annotations) request.tool_annotations = definition.annotations;
  return request;
}

type Outcome = { kind: "decided"; decision: ApprovalDecision } | { kind: "timeout" };

/** Waits for `approver`, bounded by the gate's timeout and by the call's cancellation. */
async function awaitDecision(
  approver: Approver,
  request: ApprovalRequest,
  ctx: RequestContext,
): Promise<Outcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  let why: WithdrawReason = "failed";
  const stop = new Promise<Outcome>((resolve, reject) => {
    timer = setTimeout(() => {
      why = "timed_out";
      resolve({ kind: "timeout" });
    }, request.timeout * 1000);
    onAbort = () => {
      why = "cancelled";
      reject(new ToolError("CANCELLED", "The request was cancelled."));
    };
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener("abort", onAbort, { once: true });
  });
  const decided = new Promise<unknown>((resolve) => resolve(approver.decide(request, ctx)))
    .then((value): Outcome => ({ kind: "decided", decision: normalizeDecision(value) }));
  let settled = false;
  try {
    const outcome = await Promise.race([decided, stop]);
    settled = outcome.kind === "decided";
    return outcome;
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onAbort!);
    if (!settled) {
      decided.catch(() => undefined);
      approver.cancel?.(request.request_id, why);
    }
  }
}

function denied(
  request: ApprovalRequest,
  reason: string | undefined,
  reviewerId: string | undefined,
): ToolError {
  const message = `Approval denied for tool '${request.tool_name}'` + (reason ? `: ${reason}` : "");
  return new ToolError("APPROVAL_DENIED", message, {
    details: { approval_request_id: request.request_id, ...(reviewerId ? { reviewer_id: reviewerId } : {}) },
  });
}

/**
 * A middleware that holds every call of a `requiresApproval` tool until `approver` decides. The
 * tool's own guards run first, so a caller who may not use the tool never reaches a reviewer.
 * Approved calls continue; denials, decisions that try to change the arguments, and (by default)
 * unanswered requests fail with `APPROVAL_DENIED`; an approver that throws a `ToolError` fails the
 * call with it, any other exception with `INTERNAL_ERROR`. A cancelled call (the client aborted the
 * request, closed its session or sent `notifications/cancelled`) withdraws its request at once
 * (`approver.cancel(id, "cancelled")`) and is audited with the approval decision `cancelled`.
 * Requests, grants and denials are logged without argument values, and noted on the context for the
 * audit chain (the entry's `approval`).
 *
 * On a 2026-07-28 request an approver that asks the calling client (`elicitationApprover`) ends the
 * round with an `input_required` result; the gate lets that through, and the client's retry, carrying
 * the answer, runs the call again from the start (guards included) and is decided then. The gate's
 * `timeout` bounds each round's wait, not the client's time to answer between rounds.
 *
 * Install it after the auth middleware so requests carry the caller's identity.
 *
 * @example
 * ```ts
 * import { ApiKeyAuth, approvalGate, authMiddleware, createToolServer, PendingApprover } from "@agentry/agentry/mcp";
 * const server = createToolServer({ name: "orders" });
 * const auth = authMiddleware(new ApiKeyAuth({ keys: { "dev-key": "alice" } }));
 * const queue = new PendingApprover({ maxPendingPerClient: 5, maxPendingPerTenant: 20 });
 * server.use(auth, approvalGate(queue, { timeout: 600 }));
 * queue.register(server);
 * ```
 */
export function approvalGate(
  approver: Approver | ApproverFunction,
  options: ApprovalGateOptions = {},
): Middleware {
  const settings = checkOptions(options);
  const target = toApprover(approver);
  return withRole(async (ctx: RequestContext, next: () => Promise<unknown>) => {
    const definition = ctx.definition;
    if (ctx.requestType !== "tool" || definition.kind !== "tool" || !definition.requiresApproval) {
      return await next();
    }
    await runGuards(ctx, definition.guards);
    const request = buildRequest(ctx, settings);
    const fields = {
      tool: request.tool_name,
      approval_request_id: request.request_id,
      request_id: ctx.requestId,
      client_id: ctx.clientId,
      tenant_id: ctx.tenantId,
    };
    const note = (decision: ApprovalRecord["decision"], reviewer?: string) =>
      noteApproval(ctx, {
        request_id: request.request_id,
        decision,
        ...(reviewer ? { reviewer_id: reviewer } : {}),
      });
    ctx.logger.info("approval requested", fields);
    let outcome: Outcome;
    try {
      outcome = await awaitDecision(target, request, ctx);
    } catch (error) {
      if (!isInputRequired(error)) {
        const cancelled = error instanceof ToolError && error.code === "CANCELLED" && ctx.signal.aborted;
        note(cancelled ? "cancelled" : "failed");
        if (cancelled) ctx.logger.info("approval request withdrawn: the call was cancelled", fields);
        throw error;
      }
      note("input_required");
      ctx.logger.info("approval asked of the client; the call goes on when it answers", {
        ...fields,
        pending: pendingMethods(error),
      });
      throw carryingApproval(error, request.request_id);
    }
    if (outcome.kind === "timeout") {
      note("timed_out");
      if (settings.onTimeout === "allow") {
        ctx.logger.warning("approval timed out; allowed by policy", { ...fields, timeout: settings.timeout });
        return await next();
      }
      ctx.logger.warning("approval timed out; denied", { ...fields, timeout: settings.timeout });
      throw new ToolError(
        "APPROVAL_DENIED",
        `Approval for tool '${request.tool_name}' timed out after ${settings.timeout}s and was denied by default`,
        { details: { approval_request_id: request.request_id } },
      );
    }
    const { decision } = outcome;
    const reviewer = decision.reviewer_id;
    if (decision.approved && decision.modified_arguments !== undefined) {
      const reason = "the server cannot change bound arguments";
      note("denied", reviewer);
      ctx.logger.warning("approval denied", { ...fields, reviewer_id: reviewer, reason });
      throw denied(request, reason, reviewer);
    }
    if (!decision.approved) {
      note("denied", reviewer);
      ctx.logger.info("approval denied", { ...fields, reviewer_id: reviewer, reason: decision.reason });
      throw denied(request, decision.reason, reviewer);
    }
    note("approved", reviewer);
    ctx.logger.info("approval granted", { ...fields, reviewer_id: reviewer });
    return await next();
  }, "approval");
}
