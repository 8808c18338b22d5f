/**
 * Approval of gated calls when the calling client cannot be asked, decided by the person who runs
 * the server (the operator), never by the agent:
 *
 * - Standing approval: `MCPCAST_APPROVE=tool1,tool2` lets those gated tools run without asking.
 * - One-time codes (elicitation mode): when the client cannot answer an elicitation (it lacks the
 *   capability, the session is stateless, or the request failed), the call fails with
 *   `APPROVAL_REQUIRED` and the server writes a one-time code for that exact call (tool and
 *   arguments) to its log (stderr), which only the operator reads. The same call repeated with
 *   `approval_code` set to that code runs once. Codes expire after `MCPCAST_APPROVAL_TIMEOUT`
 *   seconds; a wrong, used or expired code, or one issued for other arguments, is `APPROVAL_DENIED`.
 *
 * @module
 */

import { randomHex } from "../../_util/ids.ts";
import {
  type ApprovalDecision,
  type ApprovalRequest,
  type Approver,
  ELICITATION_REVIEWER,
  isClientCannotElicit,
  type RequestContext,
  ToolError,
} from "../../mcp/mod.ts";
import { McpcastError } from "../errors.ts";
import type { EnvLookup } from "../types.ts";

/** The argument a gated call carries its one-time approval code in. */
export const APPROVAL_CODE_ARG = "approval_code";

/** Reviewer id of calls approved by `MCPCAST_APPROVE`. */
const STANDING_REVIEWER = "operator:MCPCAST_APPROVE";
/** Reviewer id of calls approved by a one-time code. */
const CODE_REVIEWER = "operator:approval-code";
/** Most codes outstanding at once; the oldest goes first. */
const MAX_CODES = 100;
/** Longest argument text quoted in the log line. */
const LOGGED_ARGS_MAX = 1_000;

/** Reads `MCPCAST_APPROVE`: gated tool names, comma-separated; an unknown or ungated name is refused. */
export function readStandingApprovals(env: EnvLookup, gated: readonly string[]): Set<string> {
  const raw = env("MCPCAST_APPROVE")?.trim() ?? "";
  const names = new Set(raw.split(",").map((name) => name.trim()).filter((name) => name !== ""));
  const known = new Set(gated);
  const unknown = [...names].filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new McpcastError(
      `MCPCAST_APPROVE names ${unknown.length === 1 ? "a tool that is" : "tools that are"} not gated here: ` +
        `${unknown.slice(0, 5).join(", ")}${unknown.length > 5 ? ", …" : ""} (gated: ${
          gated.slice(0, 10).join(", ") || "none"
        })`,
    );
  }
  return names;
}

/** Options for {@linkcode OperatorApprover}. */
export interface OperatorApproverOptions {
  /** Gated tools the operator approved for good (`MCPCAST_APPROVE`). @default none */
  standing?: ReadonlySet<string>;
  /** Issue one-time codes when `inner` could not ask anyone (elicitation mode). @default false */
  codes?: boolean;
  /** Seconds a code stays valid. @default 300 */
  codeSeconds?: number;
  /** Where codes are written for the operator. @default a line on stderr */
  log?: (line: string) => void;
  /** Clock in milliseconds (tests). @default Date.now */
  now?: () => number;
}

interface Grant {
  key: string;
  expires: number;
}

/** Arguments as canonical JSON (sorted keys), the approval code left out. */
function callKey(tool: string, args: Record<string, unknown>, clientId: string | undefined): string {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (typeof value !== "object" || value === null) return value;
    return Object.fromEntries(
      Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  };
  const rest = Object.fromEntries(Object.entries(args).filter(([key]) => key !== APPROVAL_CODE_ARG));
  return JSON.stringify([tool, clientId ?? null, canonical(rest)]);
}

function normalizeCode(code: string): string {
  return code.trim().toLowerCase().replace(/[^0-9a-f]/g, "");
}

/**
 * An {@linkcode Approver} in front of another (elicitation or the pending queue): standing approvals
 * first, then one-time codes, then `inner`. It removes `approval_code` from the call's arguments, so
 * the upstream never sees it.
 */
export class OperatorApprover implements Approver {
  #inner: Approver;
  #standing: ReadonlySet<string>;
  #codes: boolean;
  #codeSeconds: number;
  #log: (line: string) => void;
  #now: () => number;
  #grants = new Map<string, Grant>();

  /** Wraps `inner`. */
  constructor(inner: Approver, options: OperatorApproverOptions = {}) {
    this.#inner = inner;
    this.#standing = options.standing ?? new Set();
    this.#codes = options.codes ?? false;
    this.#codeSeconds = options.codeSeconds ?? 300;
    this.#log = options.log ?? ((line) => console.error(line));
    this.#now = options.now ?? Date.now;
  }

  /** Whether this approver issues one-time codes (gated tools then advertise `approval_code`). */
  get issuesCodes(): boolean {
    return this.#codes;
  }

  /** Standing approval, else the call's code, else `inner`; a code is issued when nobody could be asked. */
  async decide(request: ApprovalRequest, ctx: RequestContext): Promise<ApprovalDecision> {
    const args = ctx.arguments as Record<string, unknown>;
    const code = args[APPROVAL_CODE_ARG];
    delete args[APPROVAL_CODE_ARG];
    const clean = { ...request, arguments: withoutCode(request.arguments) };
    if (this.#standing.has(request.tool_name)) return { approved: true, reviewer_id: STANDING_REVIEWER };
    if (this.#codes && code !== undefined) return this.#redeem(request.tool_name, code, ctx);
    let decision: ApprovalDecision;
    try {
      decision = await this.#inner.decide(clean, ctx);
    } catch (error) {
      if (this.#codes && isClientCannotElicit(error)) throw this.#issue(request, ctx);
      throw error;
    }
    if (!this.#codes || decision.approved || decision.reviewer_id !== ELICITATION_REVIEWER) return decision;
    throw this.#issue(request, ctx);
  }

  /** Forwards to `inner`. */
  cancel(requestId: string): void {
    this.#inner.cancel?.(requestId);
  }

  #prune(): void {
    const now = this.#now();
    for (const [code, grant] of this.#grants) if (grant.expires <= now) this.#grants.delete(code);
  }

  #redeem(tool: string, code: unknown, ctx: RequestContext): ApprovalDecision {
    this.#prune();
    const given = typeof code === "string" ? normalizeCode(code) : "";
    const grant = this.#grants.get(given);
    if (grant === undefined || grant.key !== callKey(tool, ctx.arguments, ctx.clientId)) {
      return {
        approved: false,
        reason: "the approval code is not valid for this call (wrong, already used, expired, or issued " +
          "for other arguments); call again without approval_code to get a new one",
      };
    }
    this.#grants.delete(given);
    return { approved: true, reviewer_id: CODE_REVIEWER };
  }

  #issue(request: ApprovalRequest, ctx: RequestContext): ToolError {
    this.#prune();
    while (this.#grants.size >= MAX_CODES) this.#grants.delete(this.#grants.keys().next().value!);
    const raw = randomHex(6);
    const code = `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8)}`;
    this.#grants.set(raw, {
      key: callKey(request.tool_name, ctx.arguments, ctx.clientId),
      expires: this.#now() + this.#codeSeconds * 1000,
    });
    let shown = JSON.stringify(withoutCode(request.arguments));
    if (shown.length > LOGGED_ARGS_MAX) shown = `${shown.slice(0, LOGGED_ARGS_MAX - 1)}…`;
    this.#log(
      `[approval] code ${code} approves one call of ${request.tool_name} with arguments ${shown}` +
        `${ctx.clientId ? ` by client ${ctx.clientId}` : ""}, valid ${this.#codeSeconds}s. ` +
        "Give it to the agent only if you approve this call.",
    );
    const tool = request.tool_name;
    return new ToolError(
      "APPROVAL_REQUIRED",
      `Tool '${tool}' needs a human's approval, and this client cannot ask its user (no MCP elicitation). ` +
        "A one-time approval code for this exact call was written to the server's log (stderr).",
      {
        suggestion: `Ask the person running the server for the code, then call ${tool} again with the same ` +
          `arguments plus "${APPROVAL_CODE_ARG}": "<code>". Never guess a code. The operator can also ` +
          `approve ${tool} for good by starting the server with MCPCAST_APPROVE=${tool}.`,
        details: {
          approval_request_id: request.request_id,
          argument: APPROVAL_CODE_ARG,
          expires_in_seconds: this.#codeSeconds,
        },
      },
    );
  }
}

function withoutCode(args: Record<string, unknown>): Record<string, unknown> {
  if (!Object.hasOwn(args, APPROVAL_CODE_ARG)) return args;
  return Object.fromEntries(Object.entries(args).filter(([key]) => key !== APPROVAL_CODE_ARG));
}
