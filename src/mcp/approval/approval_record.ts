/**
 * What the approval gate notes on a call's context for the audit chain: which approval request the call
 * belongs to and how far it got. The audit middleware writes it into the call's entry as `approval`.
 *
 * On a 2026-07-28 request one call runs in rounds; the approval request id stays the same across them:
 * a round that ends `input_required` adds the id to the signal's answers, so it travels in the signed
 * `requestState`, and the retried round finds it in `ctx.session.carried`.
 *
 * @module
 */

import { randomHex } from "../../_util/ids.ts";
import { InputRequiredSignal } from "../input_required.ts";
import type { RequestContext } from "../request_context.ts";

/**
 * The approval step of one gated call (one round, on a 2026-07-28 request), as the audit entry's
 * `approval` field records it. Wire-named.
 */
export interface ApprovalRecord {
  /** The approval request id: the same in every round of one call. */
  request_id: string;
  /**
   * `input_required`: the round ended asking the client (its answer comes with the retry);
   * `approved` / `denied`: the approver decided; `timed_out`: nobody decided in time (the entry's
   * status says whether `onTimeout` let the call run); `cancelled`: the call was cancelled while it
   * waited (the client aborted the request, closed its session or sent `notifications/cancelled`), and
   * its request was withdrawn; `failed`: the approver could not decide (it threw, or the client cannot
   * be asked; the entry's error says which).
   */
  decision: "input_required" | "approved" | "denied" | "timed_out" | "cancelled" | "failed";
  /** Who decided, for `approved` and `denied`. */
  reviewer_id?: string;
}

const KEY = "approval";

/** Notes `record` on `ctx` (the latest note wins). */
export function noteApproval(ctx: RequestContext, record: ApprovalRecord): void {
  ctx.state[KEY] = record;
}

/** The approval record the gate noted on `ctx`, if the call went through a gate. */
export function approvalRecordOf(ctx: RequestContext): ApprovalRecord | undefined {
  const value = ctx.state[KEY];
  if (typeof value !== "object" || value === null) return undefined;
  const record = value as Partial<ApprovalRecord>;
  return typeof record.request_id === "string" && typeof record.decision === "string"
    ? value as ApprovalRecord
    : undefined;
}

/** The key the approval request id travels under in a 2026-07-28 call's `requestState`. */
const CARRY_KEY = "agentry.approval";
const REQUEST_ID = /^[0-9a-f]{32}$/;

/** The approval request id of `ctx`'s call: the one an earlier round carried, else a new random one. */
export function approvalRequestId(ctx: RequestContext): string {
  const carried = ctx.session.carried?.[CARRY_KEY];
  return typeof carried === "string" && REQUEST_ID.test(carried) ? carried : randomHex(16);
}

/** `signal`, with `requestId` added to the answers the next round carries. */
export function carryingApproval(signal: InputRequiredSignal, requestId: string): InputRequiredSignal {
  return new InputRequiredSignal({ ...signal.requests }, { ...signal.answers, [CARRY_KEY]: requestId });
}
