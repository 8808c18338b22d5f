/**
 * Checks {@linkcode PendingApproverOptions} and fills in defaults.
 *
 * @module
 */

import { checkOptionKeys } from "../../_util/option_keys.ts";
import type { PendingApproverOptions } from "./pending_approver.ts";

/** Pending approver options with defaults filled. */
export interface ResolvedPendingOptions {
  /** Role the reviewer tools require. */
  approverRole: string;
  /** Store cap. */
  maxPending: number;
  /** Per-tenant cap, if any. */
  maxPendingPerTenant?: number;
  /** Per-client cap, if any. */
  maxPendingPerClient?: number;
}

const OPTION_KEYS = {
  approverRole: true,
  maxPending: true,
  maxPendingPerClient: true,
  maxPendingPerTenant: true,
} satisfies Record<keyof PendingApproverOptions, true>;

function cap(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new TypeError(`PendingApprover: ${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

/** `options` resolved; unknown keys, bad values and caps that do not nest throw a TypeError. */
export function resolvePendingOptions(options: PendingApproverOptions): ResolvedPendingOptions {
  checkOptionKeys(options, {
    owner: "PendingApprover",
    keys: OPTION_KEYS,
    unknown: "listed",
    notObject: true,
    arrays: true,
  });
  const approverRole = options.approverRole ?? "approver";
  if (typeof approverRole !== "string" || approverRole === "") {
    throw new TypeError("PendingApprover: approverRole must be a non-empty string");
  }
  const maxPending = cap(options.maxPending, "maxPending") ?? 100;
  const maxPendingPerTenant = cap(options.maxPendingPerTenant, "maxPendingPerTenant");
  const maxPendingPerClient = cap(options.maxPendingPerClient, "maxPendingPerClient");
  if (maxPendingPerTenant !== undefined && maxPendingPerTenant > maxPending) {
    throw new TypeError("PendingApprover: maxPendingPerTenant must not exceed maxPending");
  }
  const ceiling = maxPendingPerTenant === undefined ? "maxPending" : "maxPendingPerTenant";
  if (maxPendingPerClient !== undefined && maxPendingPerClient > (maxPendingPerTenant ?? maxPending)) {
    throw new TypeError(`PendingApprover: maxPendingPerClient must not exceed ${ceiling}`);
  }
  return { approverRole, maxPending, maxPendingPerTenant, maxPendingPerClient };
}
