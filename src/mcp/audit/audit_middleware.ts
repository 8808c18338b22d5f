/**
 * Audit middleware: one JSON line per tool call (and resource read and prompt get), chained by
 * HMAC-SHA256 so that edits, deletions, insertions and reordering show up in
 * {@linkcode verifyAuditLog}.
 *
 * Each entry holds `seq` (its position), `prev_hash` (the previous entry's `hmac`; 64 zeros for the
 * first) and `hmac` = HMAC-SHA256(key, canonical JSON of the entry without `hmac`). The entry is
 * canonicalised before it is signed, so what is signed is exactly what is written. Entries are built
 * and signed one at a time as calls end; the lines of one event-loop turn are written together, before
 * any reaction to those calls' results (so before their answers), and when a write fails the chain goes
 * back to the last line written. On start the chain continues from the last line of an existing file
 * (the next entry says `resumed: true`).
 *
 * Place it outermost, so it sees every refusal and the caller identity set by auth middleware.
 *
 * On a 2026-07-28 request a call that asks its client for input runs in rounds: each round is an
 * entry, the ones that ended asking with status `input_required` and `pending` (the keys and methods
 * asked, never the answers). A gated tool's entries carry `approval` (the approval request id, the same
 * in every round of one call, and the decision), so an auditor sees both the question and the outcome.
 *
 * @module
 */

import { describeError } from "../../_util/errors.ts";
import { hostEnv, mayReadHostEnv, unsetVariableReason } from "../../_util/host_env.ts";
import { randomHex } from "../../_util/ids.ts";
import { checkOptionKeys } from "../../_util/option_keys.ts";
import { Logger } from "../../log.ts";
import type { ClientContext } from "../client_context.ts";
import { internalError, ToolError } from "../errors.ts";
import { isInputRequired } from "../input_required.ts";
import { type ApprovalRecord, approvalRecordOf } from "../approval/approval_record.ts";
import { pendingMethods } from "../middleware/pending_inputs.ts";
import type { RequestContext } from "../request_context.ts";
import type { Middleware } from "../types.ts";
import { AuditLog, type EntryFields } from "./_audit_log.ts";
import { canonicalJson, type JsonValue } from "./canonical_json.ts";

/** The variable read for the key when `hmacSecret` is not given. */
export const AUDIT_SECRET_VARIABLE = "AGENTRY_AUDIT_SECRET";

/** Options for {@linkcode auditMiddleware}. */
export interface AuditMiddlewareOptions {
  /** JSONL file to append to (created with mode 0600); without it entries stay in memory only. */
  logPath?: string;
  /** Chain entries with `seq`, `prev_hash` and `hmac`. @default true */
  signed?: boolean;
  /** HMAC key. @default the `AGENTRY_AUDIT_SECRET` variable */
  hmacSecret?: string;
  /** Record the validated arguments as `args`. @default false */
  includeArgs?: boolean;
  /** Record the first 1000 characters of the result as `result`. @default false */
  includeResult?: boolean;
  /** Entries kept for {@linkcode AuditMiddleware.entries}. @default 10000 */
  maxMemoryEntries?: number;
  /** Environment lookup for the key. @default the host environment */
  env?: (name: string) => string | undefined;
  /** Where warnings and write failures are logged. @default a logger named `agentry.mcp.audit` */
  logger?: Logger;
}

/** The caller as recorded in an entry: never the token or its claims. */
export interface AuditIdentity {
  /** Token subject, else the client id. */
  subject: string;
  /** Token issuer. */
  issuer: string | null;
  /** Token audience. */
  audience: string | string[] | null;
  /** Tenant. */
  tenant_id: string | null;
  /** Roles, sorted. */
  roles: string[];
}

/** One audit record, as written (wire names). */
export interface AuditEntry {
  /** Position in the chain, from 0. */
  seq: number;
  /** When the call started, epoch seconds. */
  timestamp: number;
  /** Tool, resource or prompt name. */
  tool: string;
  /** `resource` or `prompt`; absent for tool calls. */
  request_type?: "resource" | "prompt";
  /** The resource URI, for resource reads. */
  uri?: string;
  /** Caller id, when authenticated. */
  client_id: string | null;
  /** Correlation id. */
  request_id: string;
  /**
   * Outcome: `input_required` for a round of a 2026-07-28 call that ended asking its client for input
   * (the client's retry is recorded as its own entry).
   */
  status: "ok" | "error" | "input_required";
  /** Wall time in seconds, 4 decimals. */
  duration_s: number;
  /** `<code>: <message>` or `<ErrorName>: <message>` (server side only). */
  error?: string;
  /** The tool error code, `INTERNAL_ERROR` for other exceptions. */
  error_code?: string;
  /** What an `input_required` round asked, by key: `{ e1: "elicitation/create" }` (never the answers). */
  pending?: Record<string, string>;
  /** The approval step of a gated tool call: the same `request_id` in every round of one call. */
  approval?: ApprovalRecord;
  /** Validated arguments (with `includeArgs`). */
  args?: JsonValue;
  /** First 1000 characters of the result (with `includeResult`). */
  result?: string;
  /** Who called. */
  identity?: AuditIdentity;
  /** The previous entry's `hmac`; 64 zeros for the first entry (signed logs). */
  prev_hash?: string;
  /** Set on the first entry after a restart that continued an existing file. */
  resumed?: true;
  /** HMAC-SHA256 hex of the entry without this field (signed logs). */
  hmac?: string;
}

/** The audit middleware, with its in-memory entries. */
export interface AuditMiddleware extends Middleware {
  /** The last `maxMemoryEntries` entries written, oldest first. */
  entries(): readonly AuditEntry[];
  /** Waits for pending writes and closes the file; later calls are refused. */
  close(): Promise<void>;
}

const OPTION_KEYS = {
  logPath: true,
  signed: true,
  hmacSecret: true,
  includeArgs: true,
  includeResult: true,
  maxMemoryEntries: true,
  env: true,
  logger: true,
} satisfies Record<keyof AuditMiddlewareOptions, true>;
const RESULT_CHARS = 1000;

/**
 * Records every call in a signed, append-only JSONL audit log.
 *
 * @throws {TypeError} for unknown options, or a signed log file without a key (a random key would
 * make the file unverifiable).
 *
 * @example
 * ```ts
 * import { auditMiddleware } from "./audit_middleware.ts";
 * const audit = auditMiddleware({ logPath: "audit.jsonl", hmacSecret: "s3cret" });
 * // server.use(audit) as the first (outermost) middleware; `agentry audit verify audit.jsonl` checks it.
 * await audit.close();
 * ```
 */
export function auditMiddleware(options: AuditMiddlewareOptions = {}): AuditMiddleware {
  checkOptions(options);
  const { logPath, signed = true, includeArgs = false, includeResult = false } = options;
  const { maxMemoryEntries = 10_000, env = hostEnv } = options;
  const logger = options.logger ?? new Logger("agentry.mcp.audit");
  if (!Number.isInteger(maxMemoryEntries) || maxMemoryEntries < 0) {
    throw new TypeError("auditMiddleware: maxMemoryEntries must be a whole number of 0 or more");
  }
  let secret = options.hmacSecret || env(AUDIT_SECRET_VARIABLE) || undefined;
  if (signed && secret === undefined) {
    // Read through the host environment without the permission: the variable may be set (issue 17).
    const unreadable = options.env === undefined && !mayReadHostEnv(AUDIT_SECRET_VARIABLE);
    if (logPath !== undefined) {
      throw new TypeError(
        unreadable
          ? `auditMiddleware: a signed log file needs a key, and agentry ${
            unsetVariableReason(AUDIT_SECRET_VARIABLE)
          } (or pass hmacSecret)`
          : `auditMiddleware: a signed log file needs a key: pass hmacSecret or set ${AUDIT_SECRET_VARIABLE} ` +
            "(a random key would make the file unverifiable)",
      );
    }
    secret = randomHex(32);
    logger.warning("audit: no HMAC key configured; the in-memory chain uses a random key", {
      variable: AUDIT_SECRET_VARIABLE,
      ...(unreadable ? { problem: unsetVariableReason(AUDIT_SECRET_VARIABLE) } : {}),
    });
  }
  const log = new AuditLog({ logPath, secret: signed ? secret : undefined, maxMemoryEntries, logger });
  // Not async: one `then` on the chain's promise, and no extra tick when the entry is written at once.
  const middleware: Middleware = (ctx, next) => {
    if (log.closed) {
      logger.error("audit: call refused because the audit log is closed", { tool: ctx.name });
      return Promise.reject(internalError());
    }
    const timestamp = Date.now() / 1000;
    const started = performance.now();
    let running: Promise<unknown>;
    try {
      running = next();
    } catch (error) {
      running = Promise.reject(error);
    }
    return running.then((result) => {
      const entry = baseFields(ctx, { timestamp, started, status: "ok", includeArgs });
      if (includeResult) entry.result = resultText(result);
      const writing = log.append(entry);
      return writing === undefined ? result : writing.then(() => result);
    }, (error) => {
      const asked = isInputRequired(error);
      const entry = baseFields(ctx, {
        timestamp,
        started,
        status: asked ? "input_required" : "error",
        includeArgs,
      });
      const writing = log.append(
        Object.assign(entry, asked ? { pending: pendingMethods(error) } : errorFields(error)),
      );
      if (writing === undefined) throw error;
      return writing.then(() => Promise.reject(error));
    });
  };
  return Object.assign(middleware, { entries: () => log.entries(), close: () => log.close() });
}

interface Timing {
  timestamp: number;
  started: number;
  status: AuditEntry["status"];
  includeArgs: boolean;
}

function baseFields(ctx: RequestContext, timing: Timing): EntryFields {
  const duration = (performance.now() - timing.started) / 1000;
  const fields: EntryFields = {
    timestamp: timing.timestamp,
    tool: ctx.name,
    client_id: ctx.clientId ?? null,
    request_id: ctx.requestId,
    status: timing.status,
    duration_s: Math.round(duration * 10_000) / 10_000,
  };
  if (ctx.requestType !== "tool") {
    fields.request_type = ctx.requestType;
    if (ctx.resourceUri !== undefined) fields.uri = ctx.resourceUri;
  }
  if (timing.includeArgs) fields.args = ctx.arguments as JsonValue;
  if (ctx.client) fields.identity = identityOf(ctx.client);
  const approval = approvalRecordOf(ctx);
  if (approval) fields.approval = { ...approval };
  return fields;
}

function errorFields(error: unknown): { error: string; error_code: string } {
  if (error instanceof ToolError) return { error: `${error.code}: ${error.message}`, error_code: error.code };
  return { error: describeError(error), error_code: "INTERNAL_ERROR" };
}

function identityOf(client: ClientContext): AuditIdentity {
  return {
    subject: client.subject ?? client.clientId,
    issuer: client.issuer ?? null,
    audience: client.audience ?? null,
    tenant_id: client.tenantId ?? null,
    roles: [...client.roles].sort(),
  };
}

function resultText(result: unknown): string {
  const text = typeof result === "string" ? result : canonicalJson(result);
  return text.slice(0, RESULT_CHARS);
}

function checkOptions(options: AuditMiddlewareOptions): void {
  checkOptionKeys(options, {
    owner: "auditMiddleware",
    keys: OPTION_KEYS,
    unknown: "listed",
    notObject: true,
  });
}
