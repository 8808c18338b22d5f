/**
 * An approver that asks the calling client's user, through MCP elicitation, whether a gated call
 * may run. Fails closed: anything but an explicit yes denies.
 *
 * @module
 */

import { checkOptionKeys } from "../../_util/option_keys.ts";
import type { ApprovalDecision, ApprovalRequest, Approver } from "./approver.ts";

/** Options for {@linkcode elicitationApprover}. */
export interface ElicitationApproverOptions {
  /**
   * The question shown to the user.
   * @default "Approval required: call tool '<name>' with arguments <json>. Approve?"
   */
  messageTemplate?: (request: ApprovalRequest) => string;
  /** Milliseconds to wait for the client's answer. @default 60000 */
  timeoutMs?: number;
}

/** Reviewer id when the client's user answered. */
export const CLIENT_REVIEWER: string = "elicitation:client-user";
/** Reviewer id when nobody decided: no session, an error or timeout, or a cancelled question. */
export const ELICITATION_REVIEWER: string = "elicitation";

const NO_SESSION = "no live MCP session for elicitation; denied fail-closed";
const INVALID = "the client returned an invalid elicitation response";
const DECLINED = "the client's user declined";
const CANCELLED = "the client's user dismissed the question without deciding";
const UNREACHABLE =
  "the client could not be asked (no elicitation support, or the request failed or timed out)";
const OPTION_KEYS = {
  messageTemplate: true,
  timeoutMs: true,
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

/**
 * An {@linkcode Approver} that sends `elicitation/create` to the client that made the gated call,
 * with a form `{approve: boolean (required), reason: string}`. The call runs only when the client
 * accepts with `approve: true`. No live session (stateless HTTP), a client without elicitation
 * support, a decline, a cancel, an error, a timeout, or an answer without a boolean `approve` all
 * deny, each with its own reason; when nobody decided (no session, no support, error, timeout,
 * cancel) the decision's `reviewer_id` is {@linkcode ELICITATION_REVIEWER}, so a wrapping approver
 * can offer another way to approve.
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
  return {
    async decide(request, ctx): Promise<ApprovalDecision> {
      if (!ctx.session.live) {
        return { approved: false, reason: NO_SESSION, reviewer_id: ELICITATION_REVIEWER };
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
}
