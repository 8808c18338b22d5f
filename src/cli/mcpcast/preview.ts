/**
 * Pure helpers of the guided setup: what a spec holds (risk breakdown, credential), what each safety
 * profile would keep, the auth choices, and the equivalent non-interactive command.
 *
 * @module
 */

import {
  type ApprovalMode,
  type AuthMode,
  buildPlan,
  classify,
  gatedTools,
  type McpcastPlan,
  type ParsedSpec,
  type RiskClass,
  SAFETY_PROFILES,
  type SafetyProfile,
} from "../../mcpcast/mod.ts";
import type { Choice } from "../prompter.ts";
import { shellQuote } from "../../_util/shell_quote.ts";

/** What one profile would do to a spec. */
export interface ProfilePreview {
  /** Tools kept. */
  kept: number;
  /** Kept tools behind approval. */
  gated: number;
  /** Operations dropped. */
  dropped: number;
}

const RISK_ORDER: readonly RiskClass[] = ["read", "write", "destructive", "financial"];

/** `9 operations: 4 read · 3 write · 2 destructive`. */
export function riskBreakdown(spec: ParsedSpec): string {
  const counts = new Map<RiskClass, number>();
  for (const op of spec.operations) {
    const { risk } = classify(op);
    counts.set(risk, (counts.get(risk) ?? 0) + 1);
  }
  const parts = RISK_ORDER.filter((risk) => counts.has(risk)).map((risk) => `${counts.get(risk)} ${risk}`);
  const total = spec.operations.length;
  return `${total.toLocaleString("en-US")} operation${total === 1 ? "" : "s"}: ${parts.join(" · ")}`;
}

/**
 * The plan of each profile, built with env-token auth so that no auth mode refuses the spec (the
 * counts do not depend on the auth mode otherwise).
 */
export function previewPlans(spec: ParsedSpec, baseUrl?: string): Record<SafetyProfile, McpcastPlan> {
  const entries = SAFETY_PROFILES.map((
    profile,
  ) => [profile, buildPlan(spec, { profile, auth: "env-token", baseUrl })]);
  return Object.fromEntries(entries) as Record<SafetyProfile, McpcastPlan>;
}

/** The counts of one planned profile. */
export function previewOf(plan: McpcastPlan): ProfilePreview {
  return { kept: plan.tools.length, gated: gatedTools(plan).length, dropped: plan.dropped.length };
}

/** `header 'Authorization'` or `query parameter 'api_key'`. */
export function credentialOf(plan: McpcastPlan): string {
  const where = plan.api.credential_location === "header" ? "header" : "query parameter";
  return `${where} '${plan.api.credential_name}'`;
}

/** Whether the generated server can relay the caller's own credential (only an Authorization header). */
export function canPassThrough(plan: McpcastPlan): boolean {
  return plan.api.credential_location === "header" &&
    plan.api.credential_name.toLowerCase() === "authorization";
}

/** The auth modes with a one-line explanation each (passthrough unavailable when it cannot relay). */
export function authChoices(plan: McpcastPlan): Choice<AuthMode>[] {
  return [
    {
      value: "env-token",
      note: "personal use: one upstream credential from MCPCAST_UPSTREAM_TOKEN; serves on this machine only",
    },
    {
      value: "passthrough",
      note:
        "shared server: forwards each caller's Authorization header to the API (authenticates nobody itself)",
      ...(canPassThrough(plan) ? {} : { unavailable: `the spec's credential is in ${credentialOf(plan)}` }),
    },
    {
      value: "api-key",
      note: "multi-tenant: clients present keys (MCPCAST_CLIENT_KEYS), each tenant with its own credential",
    },
    { value: "none", note: "the API needs no credential; serves on this machine only" },
  ];
}

/** The approval modes available for `auth`, the default first. */
export function approvalChoices(auth: AuthMode): Choice<ApprovalMode>[] {
  const elicitation: Choice<ApprovalMode> = {
    value: "elicitation",
    note: "the calling client asks its user to approve each gated call",
  };
  if (auth !== "api-key") return [elicitation];
  return [
    { value: "pending", note: "a reviewer (role approver) decides with approvals_decide" },
    elicitation,
  ];
}

/** Choices made in the guided setup, for {@linkcode equivalentCommand}. */
export interface WizardChoices {
  /** The spec source. */
  source: string;
  /** Base URL typed when it differs from the spec's. */
  baseUrl?: string;
  /** `--tag` values kept. */
  tags?: readonly string[];
  /** `--path` prefixes kept. */
  paths?: readonly string[];
  /** Profile. */
  profile: SafetyProfile;
  /** Auth mode. */
  auth: AuthMode;
  /** Approval mode, when one was chosen. */
  approval?: ApprovalMode;
  /** API name when it differs from the spec's. */
  name?: string;
  /** Output directory when it differs from the default. */
  out?: string;
  /** Whether writing needed --force. */
  force: boolean;
  /** `--framework-import`, when given. */
  frameworkImport?: string;
  /** `--model`, when a model curated or evaluates. */
  model?: string;
  /** Whether the model curated (else `--no-curate`, the model serving `--eval` only). @default true */
  curate?: boolean;
  /** `--eval`. */
  evaluate?: boolean;
}

/** `value` quoted for a POSIX shell when it needs it. */
export const quoteArgument: (value: string) => string = shellQuote;

/** The `agentry mcpcast` command that reproduces the choices without questions. */
export function equivalentCommand(choices: WizardChoices): string {
  const args = ["agentry", "mcpcast", choices.source];
  if (choices.baseUrl !== undefined) args.push("--base-url", choices.baseUrl);
  for (const tag of choices.tags ?? []) args.push("--tag", tag);
  for (const path of choices.paths ?? []) args.push("--path", path);
  if (choices.model !== undefined) {
    args.push("--model", choices.model);
    if (choices.curate === false) args.push("--no-curate");
  }
  if (choices.profile !== "read-only") args.push("--profile", choices.profile);
  // Always named: the default depends on whether the spec declares security (slice D, issue 15).
  args.push("--auth", choices.auth);
  const usual = choices.auth === "api-key" ? "pending" : "elicitation";
  if (choices.approval !== undefined && choices.approval !== usual) args.push("--approval", choices.approval);
  if (choices.name !== undefined) args.push("--name", choices.name);
  if (choices.out !== undefined) args.push("--out", choices.out);
  if (choices.force) args.push("--force");
  if (choices.frameworkImport !== undefined) args.push("--framework-import", choices.frameworkImport);
  if (choices.evaluate) args.push("--eval");
  return args.map(quoteArgument).join(" ");
}
