/**
 * An approver that asks the calling client's user, through MCP elicitation, whether a gated call
 * may run. Fails closed: anything but an explicit yes denies.
 *
 * @module
 */

import { checkOptionKeys } from "../../_util/option_keys.ts";
import { ToolError } from "../errors.ts";
import { isInputRequired } from "../input_required.ts";
import type { RequestContext } from "../request_context.ts";
import {
  type ApprovalDecision,
  type ApprovalRequest,
  type Approver,
  type ApproverFunction,
  toApprover,
} from "./approver.ts";

/** Options for {@linkcode elicitationApprover}. */
export interface ElicitationApproverOptions {
  /**
   * The question shown to the user.
   * @default "Approval required: call tool '<name>' with arguments <json>. Approve?"
   */
  messageTemplate?: (request: ApprovalRequest) => string;
  /** Milliseconds to wait for the client's answer (2025-era sessions). @default 60000 */
  timeoutMs?: number;
  /**
   * The approver that decides when the calling client cannot be asked (it declares no elicitation
   * capability, or a stateless 2025 HTTP request has no session to ask it on), e.g. a
   * `PendingApprover` whose reviewers decide with the `approvals_decide` tool. Without it such calls
   * are refused with `APPROVAL_DENIED` and a suggestion saying how to approve.
   * @default none
   */
  fallback?: Approver | ApproverFunction;
}

/** Reviewer id when the client's user answered. */
export const CLIENT_REVIEWER: string = "elicitation:client-user";
/** Reviewer id when nobody decided: an error or timeout, or a cancelled question. */
export const ELICITATION_REVIEWER: string = "elicitation";
/**
 * `details.reason` of the `APPROVAL_DENIED` refusal for a client that cannot be asked (no elicitation
 * capability, or no session to ask on), so a wrapping approver can offer another way to approve.
 */
export const CLIENT_CANNOT_ELICIT: string = "client_cannot_elicit";

/** Whether `error` is the refusal {@linkcode elicitationApprover} throws for a client it cannot ask. */
export function isClientCannotElicit(error: unknown): error is ToolError {
  return error instanceof ToolError && error.details.reason === CLIENT_CANNOT_ELICIT;
}

const INVALID = "the client returned an invalid elicitation response";
const DECLINED = "the client's user declined";
const CANCELLED = "the client's user dismissed the question without deciding";
const UNREACHABLE = "the client could not be asked (the request failed or timed out)";
const OPTION_KEYS = {
  messageTemplate: true,
  timeoutMs: true,
  fallback: true,
} satisfies Record<keyof ElicitationApproverOptions, true>;

/** The default question for `request`. */
export function defaultApprovalMessage(request: ApprovalRequest): string {
  return `Approval required: call tool '${request.tool_name}' with arguments ${
    JSON.stringify(request.arguments)
  }. Approve?`;
}

function checkOptions(options: ElicitationApproverOptions): void {
  checkOptionKeys(options, {
    owner: "elicitationApprover",
    keys: OPTION_KEYS,
    unknown: "listed",
    notObject: true,
    arrays: true,
  });
  if (options.messageTemplate !== undefined && typeof options.messageTemplate !== "function") {
    throw new TypeError("elicitationApprover: messageTemplate must be a function (request) => string");
  }
  const timeoutMs = options.timeoutMs;
  if (
    timeoutMs !== undefined && !(typeof timeoutMs === "number" && Number.isFinite(timeoutMs) && timeoutMs > 0)
  ) {
    throw new TypeError(`elicitationApprover: timeoutMs must be a number above 0, got ${String(timeoutMs)}`);
  }
}

function fallbackOf(options: ElicitationApproverOptions): Approver | undefined {
  if (options.fallback === undefined) return undefined;
  try {
    return toApprover(options.fallback);
  } catch {
    throw new TypeError(
      "elicitationApprover: fallback must be an approver (a function or an object with decide(request, ctx))",
    );
  }
}

/** Why the calling client cannot be asked. */
function whyUnaskable(ctx: RequestContext): string {
  return ctx.session.era === "legacy" && !ctx.session.live
    ? "its request has no session to carry the question (stateless HTTP)"
    : "it declares no elicitation capability";
}

/** The refusal for a call whose client cannot be asked and no fallback decides. */
function unaskable(request: ApprovalRequest, ctx: RequestContext): ToolError {
  return new ToolError(
    "APPROVAL_DENIED",
    `Approval required for tool '${request.tool_name}', and this client cannot be asked: ${
      whyUnaskable(ctx)
    }`,
    {
      suggestion:
        "Call again from an MCP client that supports elicitation, so its user can approve the call. " +
        "This server has no other way to approve it here (its operator can add one: a reviewer queue, " +
        "PendingApprover, as the approver's fallback, decided with the approvals_decide tool).",
      details: { approval_request_id: request.request_id, reason: CLIENT_CANNOT_ELICIT },
    },
  );
}

/**
 * An {@linkcode Approver} that asks the client that made the gated call, with an elicitation form
 * `{approve: boolean (required), reason: string}`. The call runs only when the client accepts with
 * `approve: true`. On a 2025-era session the question is an `elicitation/create` request; on a
 * 2026-07-28 request it rides on an `input_required` result (the round ends there, and the client's
 * retry carries the answer). A decline, a cancel, an error, a timeout, or an answer without a boolean
 * `approve` all deny, each with its own reason; when nobody decided (error, timeout, cancel) the
 * decision's `reviewer_id` is {@linkcode ELICITATION_REVIEWER}, so a wrapping approver can offer
 * another way to approve.
 *
 * A client that cannot be asked (it declares no elicitation capability, or a stateless 2025 HTTP
 * request has no session) goes to `fallback` when given (e.g. a `PendingApprover`); without one the
 * call is refused with `APPROVAL_DENIED`, details `{ reason: "client_cannot_elicit" }` and a suggestion
 * saying how to approve.
 *
 * Only useful when the caller is a human-facing client: the user being asked is the one who asked
 * for the call, so this confirms intent rather than giving a second pair of eyes (use
 * `PendingApprover` for that).
 *
 * @example
 * ```ts
 * import { approvalGate, createToolServer, elicitationApprover } from "@agentry/agentry/mcp";
 * const server = createToolServer({ name: "orders" });
 * server.use(approvalGate(elicitationApprover({ timeoutMs: 120_000 }), { timeout: 180 }));
 * ```
 */
export function elicitationApprover(options: ElicitationApproverOptions = {}): Approver {
  checkOptions(options);
  const { messageTemplate = defaultApprovalMessage, timeoutMs = 60_000 } = options;
  const fallback = fallbackOf(options);
  const approver: Approver = {
    async decide(request, ctx): Promise<ApprovalDecision> {
      if (!ctx.session.supports("elicitation/create")) {
        if (fallback) return await fallback.decide(request, ctx);
        throw unaskable(request, ctx);
      }
      let answer;
      try {
        answer = await ctx.session.elicit({
          message: messageTemplate(request),
          requestedSchema: {
            type: "object",
            properties: {
              approve: { type: "boolean", title: "Approve" },
              reason: { type: "string", title: "Reason" },
            },
            required: ["approve"],
          },
        }, { timeoutMs });
      } catch (error) {
        if (isInputRequired(error)) throw error; // a 2026-07-28 round: the answer comes with the retry
        ctx.logger.warning("approval elicitation failed", {
          tool: request.tool_name,
          approval_request_id: request.request_id,
          error: error instanceof Error ? error.name : typeof error,
        });
        return { approved: false, reason: UNREACHABLE, reviewer_id: ELICITATION_REVIEWER };
      }
      if (answer.action === "decline") {
        return { approved: false, reason: DECLINED, reviewer_id: CLIENT_REVIEWER };
      }
      if (answer.action === "cancel") {
        return { approved: false, reason: CANCELLED, reviewer_id: ELICITATION_REVIEWER };
      }
      const approve = answer.action === "accept" ? answer.content?.approve : undefined;
      if (typeof approve !== "boolean") {
        return { approved: false, reason: INVALID, reviewer_id: CLIENT_REVIEWER };
      }
      const reason = answer.content?.reason;
      return {
        approved: approve,
        reviewer_id: CLIENT_REVIEWER,
        ...(typeof reason === "string" && reason !== "" ? { reason } : {}),
      };
    },
  };
  const cancel = fallback?.cancel;
  if (cancel) approver.cancel = (requestId) => cancel.call(fallback, requestId);
  return approver;
}
