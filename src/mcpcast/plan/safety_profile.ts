/**
 * The SafetyProfile matrix: which risk classes a profile generates, and which of those are gated
 * behind human approval.
 *
 * | Profile   | read    | write                   | destructive / financial |
 * |-----------|---------|-------------------------|-------------------------|
 * | read-only | exposed | not generated           | not generated           |
 * | standard  | exposed | exposed, approval gated | not generated           |
 * | full      | exposed | exposed, approval gated | exposed, approval gated |
 *
 * @module
 */

import type { RiskClass, SafetyProfile } from "../types.ts";

/** The profiles, from the most to the least restrictive. */
export const SAFETY_PROFILES: readonly SafetyProfile[] = Object.freeze(["read-only", "standard", "full"]);

/**
 * Whether `profile` generates tools of class `risk`.
 *
 * @example
 * ```ts
 * import { profileAllows } from "./safety_profile.ts";
 * profileAllows("standard", "write"); // true
 * profileAllows("standard", "financial"); // false
 * ```
 */
export function profileAllows(profile: SafetyProfile, risk: RiskClass): boolean {
  if (profile === "read-only") return risk === "read";
  if (profile === "standard") return risk === "read" || risk === "write";
  return true;
}

/**
 * Whether a tool of class `risk` must be approval-gated under `profile`: every class but read that the
 * profile generates. (Reads may opt in; a class the profile does not generate needs nothing.)
 */
export function needsApproval(profile: SafetyProfile, risk: RiskClass): boolean {
  return risk !== "read" && profileAllows(profile, risk);
}

/** The drop reason for an operation of class `risk` that `profile` does not generate. */
export function profileExclusionReason(profile: SafetyProfile, risk: RiskClass): string {
  return `${risk} operation excluded by profile '${profile}'`;
}
