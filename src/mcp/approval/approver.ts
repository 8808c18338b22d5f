/**
 * The contract between the approval gate and whoever decides: the request a human is asked about,
 * the decision they give back, and the {@linkcode Approver} that relays one to the other.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/types"
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { RequestContext } from "../request_context.ts";

/** Where a gated call came from; identity fields are present only when the caller authenticated. */
export interface ApprovalMetadata {
  /** Server name. */
  server: string;
  /** The MCP request's correlation id (`ctx.requestId`). */
  mcp_request_id: string;
  /** Authenticated caller id. */
  client_id?: string;
  /** The caller's tenant. */
  tenant_id?: string;
  /** Token subject (`sub`). */
  subject?: string;
  /** Token issuer (`iss`). */
  issuer?: string;
}

/** One gated tool call awaiting a decision. Wire-named, so it can be shown or sent as JSON as is. */
export interface ApprovalRequest {
  /** 32 random hex characters. */
  request_id: string;
  /** The tool being called. */
  tool_name: string;
  /** The validated arguments, or `{}` when the gate was built with `includeArguments: false`. */
  arguments: Record<string, unknown>;
  /** The authenticated caller id (`ctx.clientId`). */
  caller_user_id?: string;
  /** `server-side approval gate on '<server>'`. */
  context_summary: string;
  /** Seconds the gate waits for a decision. */
  timeout: number;
  /** Where the call came from. */
  metadata: ApprovalMetadata;
  /** The tool's MCP annotations (title and hints), when it declared any. */
  tool_annotations?: ToolAnnotations;
}

/** Why the gate stopped waiting for a decision. */
export type WithdrawReason = "cancelled" | "timed_out" | "failed";

/** What an approver decided. */
export interface ApprovalDecision {
  /** Whether the call may run. Anything but `true` denies. */
  approved: boolean;
  /** Why; shown to the caller on denial. */
  reason?: string;
  /** Who decided, for logs and the denial's details. */
  reviewer_id?: string;
  /**
   * Replacement arguments. The server cannot change arguments it already validated and bound, so a
   * decision carrying any is treated as a denial.
   */
  modified_arguments?: unknown;
}

/**
 * Decides approval requests. `decide` receives the context of the parked call, so an approver can
 * talk back to the calling client (see `elicitationApprover`).
 *
 * @example
 * ```ts
 * import type { Approver } from "@agentry/agentry/mcp";
 * const weekdaysOnly: Approver = {
 *   decide: (request) => Promise.resolve({ approved: new Date().getDay() % 6 !== 0, reviewer_id: "calendar" }),
 * };
 * ```
 */
export interface Approver {
  /**
   * The decision for `request`. A rejection with a `ToolError` fails the call with it, any other with
   * `INTERNAL_ERROR`; an `InputRequiredSignal` (asking the client on a 2026-07-28 request) ends the
   * round and the call is decided on the client's retry.
   */
  decide(request: ApprovalRequest, ctx: RequestContext): Promise<ApprovalDecision>;
  /**
   * Forgets `requestId`: the gate stopped waiting, `why` says for what (`cancelled`: the call was
   * cancelled; `timed_out`: the gate's timeout; `failed`: `decide` threw).
   */
  cancel?(requestId: string, why?: WithdrawReason): void;
}

/** A bare decision function: `true`/`false` or a full decision, possibly async. */
export type ApproverFunction = (
  request: ApprovalRequest,
  ctx: RequestContext,
) => boolean | ApprovalDecision | Promise<boolean | ApprovalDecision>;

/** A decision from whatever an approver returned; anything malformed denies (fail closed). */
export function normalizeDecision(value: unknown): ApprovalDecision {
  if (typeof value === "boolean") return { approved: value };
  if (typeof value !== "object" || value === null) {
    return { approved: false, reason: "the approver returned an invalid decision" };
  }
  const raw = value as Record<string, unknown>;
  const decision: ApprovalDecision = { approved: raw.approved === true };
  if (typeof raw.reason === "string" && raw.reason !== "") decision.reason = raw.reason;
  if (typeof raw.reviewer_id === "string" && raw.reviewer_id !== "") decision.reviewer_id = raw.reviewer_id;
  if (raw.modified_arguments !== undefined) decision.modified_arguments = raw.modified_arguments;
  return decision;
}

/** `approver` as an {@linkcode Approver}; a bare function is wrapped. Throws a TypeError for anything else. */
export function toApprover(approver: Approver | ApproverFunction): Approver {
  if (typeof approver === "function") {
    return { decide: async (request, ctx) => normalizeDecision(await approver(request, ctx)) };
  }
  if (typeof approver === "object" && approver !== null && typeof approver.decide === "function") {
    if (approver.cancel !== undefined && typeof approver.cancel !== "function") {
      throw new TypeError("approvalGate: approver.cancel must be a function");
    }
    return approver;
  }
  throw new TypeError("approvalGate: approver must be a function or an object with decide(request, ctx)");
}
