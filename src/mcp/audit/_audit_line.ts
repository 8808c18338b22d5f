/**
 * The canonical text of one audit entry, built in one pass over its known fields: the same text
 * {@linkcode canonicalJson} gives for the entry (keys sorted, no whitespace, absent fields left out), at
 * a fraction of the cost, since the fields and their order are known. Nested values (`args`) and
 * anything of an unexpected type fall back to {@linkcode canonicalJson}.
 *
 * @module
 */

import { canonicalJson } from "./canonical_json.ts";
import type { AuditEntry, AuditIdentity } from "./audit_middleware.ts";

/** An entry before signing: everything but `hmac`. */
export type UnsignedEntry = Omit<AuditEntry, "hmac">;

/** A string as JSON, or the canonical text of a value that is not a string. */
function text(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : canonicalJson(value);
}

function number(value: number): string {
  return Number.isFinite(value) ? String(value) : canonicalJson(value);
}

function identityText(identity: AuditIdentity): string {
  const { audience, issuer, roles, subject, tenant_id: tenant } = identity;
  if (!Array.isArray(roles) || !roles.every((role) => typeof role === "string")) {
    return canonicalJson(identity);
  }
  let out = "{";
  if (audience !== undefined) out += `"audience":${audience === null ? "null" : text(audience)},`;
  if (issuer !== undefined) out += `"issuer":${issuer === null ? "null" : text(issuer)},`;
  out += `"roles":[${roles.map((role) => JSON.stringify(role)).join(",")}]`;
  if (subject !== undefined) out += `,"subject":${text(subject)}`;
  if (tenant !== undefined) out += `,"tenant_id":${tenant === null ? "null" : text(tenant)}`;
  return `${out}}`;
}

/**
 * `entry` as canonical JSON (what is signed and, with the `hmac` member added, written). Keys in
 * UTF-16 order: approval, args, client_id, duration_s, error, error_code, identity, pending, prev_hash,
 * request_id, request_type, result, resumed, seq, status, timestamp, tool, uri.
 */
export function auditLine(entry: UnsignedEntry): string {
  let out = "{";
  if (entry.approval !== undefined) out += `"approval":${canonicalJson(entry.approval)},`;
  if (entry.args !== undefined) out += `"args":${canonicalJson(entry.args)},`;
  if (entry.client_id !== undefined) {
    out += `"client_id":${entry.client_id === null ? "null" : text(entry.client_id)},`;
  }
  out += `"duration_s":${number(entry.duration_s)}`;
  if (entry.error !== undefined) out += `,"error":${text(entry.error)}`;
  if (entry.error_code !== undefined) out += `,"error_code":${text(entry.error_code)}`;
  if (entry.identity !== undefined) out += `,"identity":${identityText(entry.identity)}`;
  if (entry.pending !== undefined) out += `,"pending":${canonicalJson(entry.pending)}`;
  if (entry.prev_hash !== undefined) out += `,"prev_hash":${text(entry.prev_hash)}`;
  out += `,"request_id":${text(entry.request_id)}`;
  if (entry.request_type !== undefined) out += `,"request_type":${text(entry.request_type)}`;
  if (entry.result !== undefined) out += `,"result":${text(entry.result)}`;
  if (entry.resumed !== undefined) out += `,"resumed":${canonicalJson(entry.resumed)}`;
  out += `,"seq":${number(entry.seq)},"status":${text(entry.status)},"timestamp":${number(entry.timestamp)}`;
  out += `,"tool":${text(entry.tool)}`;
  if (entry.uri !== undefined) out += `,"uri":${text(entry.uri)}`;
  return `${out}}`;
}
