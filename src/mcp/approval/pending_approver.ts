/**
 * An approver that parks gated calls in an in-process queue until a reviewer decides them through
 * the `approvals_list` and `approvals_decide` tools.
 *
 * @module
 */

import { z } from "zod";
import type { RequestContext } from "../request_context.ts";
import type { ToolServer } from "../tool_server.ts";
import type { ApprovalDecision, ApprovalRequest, Approver, WithdrawReason } from "./approver.ts";
import { resolvePendingOptions } from "./_pending_options.ts";

/** Options for {@linkcode PendingApprover}. */
export interface PendingApproverOptions {
  /** Role a reviewer must hold to list and decide. @default "approver" */
  approverRole?: string;
  /** Requests parked at once, across all callers. @default 100 */
  maxPending?: number;
  /** Requests parked at once per caller; at most `maxPendingPerTenant` (else `maxPending`). @default no own cap */
  maxPendingPerClient?: number;
  /** Requests parked at once per tenant; at most `maxPending`. @default no own cap */
  maxPendingPerTenant?: number;
}

/** A parked request as `approvals_list` shows it. */
export interface PendingApprovalView {
  /** The approval request id to decide. */
  request_id: string;
  /** The gated tool. */
  tool: string;
  /** The call's arguments (`{}` when the gate hides them). */
  arguments: Record<string, unknown>;
  /** Who asked (the client key: caller, else client id, else tenant, else ""). */
  client_id: string;
  /** The caller's tenant, or "". */
  tenant_id: string;
  /** Seconds since the request was parked. */
  age_seconds: number;
}

/** Who is deciding; a reviewer with a tenant only sees that tenant's requests. */
export interface Reviewer {
  /** Reviewer's client id. */
  clientId: string;
  /** Reviewer's tenant, if any. */
  tenantId?: string;
}

/** What deciding a request answered. */
export type ResolveResult =
  | { resolved: true; request_id: string; approved: boolean }
  | { resolved: false; error: string };

interface Pending {
  request: ApprovalRequest;
  resolve: (decision: ApprovalDecision) => void;
  createdAt: number;
}

/** Why a withdrawn request is gone, as deciding it answers. */
const WITHDRAWN: Record<WithdrawReason, string> = {
  cancelled: "the call was cancelled",
  timed_out: "nobody decided it in time",
  failed: "the approval failed",
};

const DECIDE_INPUT = z.object({
  request_id: z.string().describe("The request_id from approvals_list"),
  approve: z.boolean().describe("true to let the call run, false to deny it"),
  reason: z.string().optional().describe("Why; shown to the caller on denial"),
});

/** The key a request's caller is counted (and checked for four-eyes) under. */
function clientKey(request: ApprovalRequest): string {
  return request.caller_user_id || request.metadata.client_id || request.metadata.tenant_id || "";
}

function tenantKey(request: ApprovalRequest): string {
  return request.metadata.tenant_id || "";
}

/** Whether `reviewer` may see `request` (a reviewer with a tenant sees only that tenant's). */
function mayReview(reviewer: Reviewer, request: ApprovalRequest): boolean {
  return !reviewer.tenantId || tenantKey(request) === reviewer.tenantId;
}

/**
 * A queue of approval requests decided by reviewers holding `approverRole`. Use it as the gate's
 * approver and call {@linkcode PendingApprover.register} to add the reviewer tools.
 *
 * Rules:
 * - Caps nest (`maxPendingPerClient` ≤ `maxPendingPerTenant` ≤ `maxPending`); a request past any cap is
 *   denied at once with a reason naming the cap.
 * - Four eyes: nobody approves their own request (denying it, i.e. withdrawing, is allowed).
 * - Tenant scoping: a reviewer whose credential carries a tenant sees and decides only requests of
 *   that tenant; other tenants' requests look like unknown ids. A reviewer without a tenant sees all.
 * - A call cancelled while parked (its client aborted the request, closed its session or sent
 *   `notifications/cancelled`) withdraws its request at once: it leaves `approvals_list`, and deciding
 *   it answers that it was withdrawn.
 * - The queue lives in this process only: no persistence, no sharing between replicas; a restart
 *   drops parked calls (their callers see the connection end).
 *
 * @example
 * ```ts
 * import { ApiKeyAuth, approvalGate, authMiddleware, createToolServer, PendingApprover } from "@agentry/agentry/mcp";
 * const server = createToolServer({ name: "orders" });
 * const auth = authMiddleware(new ApiKeyAuth({ keys: { "ops-key": { client_id: "ops", roles: ["ops"] } } }));
 * const queue = new PendingApprover({ approverRole: "ops", maxPendingPerClient: 5 });
 * server.use(auth, approvalGate(queue));
 * queue.register(server);
 * ```
 */
export class PendingApprover implements Approver {
  /** Role the reviewer tools require. */
  readonly approverRole: string;
  /** Store cap. */
  readonly maxPending: number;
  /** Per-tenant cap. */
  readonly maxPendingPerTenant?: number;
  /** Per-client cap. */
  readonly maxPendingPerClient?: number;
  #pending = new Map<string, Pending>();
  /** Requests withdrawn lately (oldest first, at most `maxPending`), so deciding one says so. */
  #withdrawn = new Map<string, { request: ApprovalRequest; why: WithdrawReason }>();

  /** A queue with `options`; unknown keys and caps that do not nest are refused with a TypeError. */
  constructor(options: PendingApproverOptions = {}) {
    const resolved = resolvePendingOptions(options);
    this.approverRole = resolved.approverRole;
    this.maxPending = resolved.maxPending;
    this.maxPendingPerTenant = resolved.maxPendingPerTenant;
    this.maxPendingPerClient = resolved.maxPendingPerClient;
  }

  /** How many requests are parked. */
  get size(): number {
    return this.#pending.size;
  }

  #refusal(request: ApprovalRequest): string | undefined {
    if (this.#pending.size >= this.maxPending) return `pending approval queue is full (${this.maxPending})`;
    const tenant = tenantKey(request);
    const client = clientKey(request);
    let perTenant = 0;
    let perClient = 0;
    for (const { request: other } of this.#pending.values()) {
      if (tenantKey(other) === tenant) perTenant++;
      if (clientKey(other) === client) perClient++;
    }
    const tenantCap = this.maxPendingPerTenant;
    if (tenantCap !== undefined && perTenant >= tenantCap) {
      return `per-tenant pending approval cap reached for tenant '${tenant}' (${tenantCap} per tenant)`;
    }
    const clientCap = this.maxPendingPerClient;
    if (clientCap !== undefined && perClient >= clientCap) {
      return `per-client pending approval cap reached for '${client}' (${clientCap} per client)`;
    }
    return undefined;
  }

  /** Parks `request` until a reviewer decides it or the gate cancels it; denies at once past a cap. */
  decide(request: ApprovalRequest, _ctx?: RequestContext): Promise<ApprovalDecision> {
    const refusal = this.#refusal(request);
    if (refusal) return Promise.resolve({ approved: false, reason: refusal });
    return new Promise((resolve) => {
      this.#pending.set(request.request_id, { request, resolve, createdAt: Date.now() });
    });
  }

  /**
   * Withdraws `requestId` without deciding it (the gate stopped waiting: the call was cancelled, timed
   * out or failed): it leaves `approvals_list` at once, and deciding it answers that it was withdrawn
   * and why (for the last `maxPending` withdrawn requests; older ones are unknown ids).
   */
  cancel(requestId: string, why: WithdrawReason = "cancelled"): void {
    const entry = this.#pending.get(requestId);
    if (!entry) return;
    this.#pending.delete(requestId);
    this.#withdrawn.set(requestId, { request: entry.request, why });
    if (this.#withdrawn.size > this.maxPending) this.#withdrawn.delete(this.#withdrawn.keys().next().value!);
  }

  #visible(id: string, reviewer: Reviewer): Pending | undefined {
    const entry = this.#pending.get(id);
    if (!entry) return undefined;
    return mayReview(reviewer, entry.request) ? entry : undefined;
  }

  #notPending(id: string, reviewer: Reviewer): string {
    const gone = this.#withdrawn.get(id);
    if (gone && mayReview(reviewer, gone.request)) {
      return `approval request '${id}' was withdrawn: ${WITHDRAWN[gone.why]}`;
    }
    return `no pending approval request '${id}'`;
  }

  /** The requests `reviewer` may see, oldest first. */
  list(reviewer: Reviewer): PendingApprovalView[] {
    const now = Date.now();
    return [...this.#pending.keys()].flatMap((id) => {
      const entry = this.#visible(id, reviewer);
      if (!entry) return [];
      const { request } = entry;
      return [{
        request_id: request.request_id,
        tool: request.tool_name,
        arguments: request.arguments,
        client_id: clientKey(request),
        tenant_id: tenantKey(request),
        age_seconds: Math.max(0, Math.floor((now - entry.createdAt) / 1000)),
      }];
    });
  }

  /** Decides `requestId` as `reviewer`; the parked call continues or is denied with `reason`. */
  resolve(
    requestId: string,
    reviewer: Reviewer,
    verdict: { approve: boolean; reason?: string },
  ): ResolveResult {
    const entry = this.#visible(requestId, reviewer);
    if (!entry) return { resolved: false, error: this.#notPending(requestId, reviewer) };
    if (verdict.approve && reviewer.clientId === clientKey(entry.request)) {
      return { resolved: false, error: "cannot approve your own request (four-eyes rule)" };
    }
    this.#pending.delete(requestId);
    entry.resolve({
      approved: verdict.approve,
      reviewer_id: reviewer.clientId,
      ...(verdict.reason ? { reason: verdict.reason } : {}),
    });
    return { resolved: true, request_id: requestId, approved: verdict.approve };
  }

  /**
   * Registers `approvals_list` and `approvals_decide` on `server`: both need authentication and
   * `approverRole`, and carry the tag `approvals`. The reviewer is the caller's client id; their
   * tenant scopes what they see. Neither tool is ever cached.
   */
  register(server: ToolServer): ToolServer {
    const access = { auth: true, roles: [this.approverRole], tags: ["approvals"], cache: false };
    const reviewerOf = (ctx: RequestContext): Reviewer => ({
      clientId: ctx.clientId ?? "",
      tenantId: ctx.tenantId,
    });
    server.tool("approvals_list", {
      ...access,
      description: "List tool calls waiting for approval",
      readOnlyHint: true,
    }, (_args, ctx) => this.list(reviewerOf(ctx)));
    server.tool(
      "approvals_decide",
      {
        ...access,
        description: "Approve or deny a tool call waiting for approval (you cannot approve your own)",
        input: DECIDE_INPUT,
      },
      (args, ctx) =>
        this.resolve(args.request_id, reviewerOf(ctx), { approve: args.approve, reason: args.reason }),
    );
    return server;
  }
}
