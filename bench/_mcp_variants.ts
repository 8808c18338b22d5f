/**
 * The servers `bench:mcp` can measure, and the choice of them from its flags (`--revision`, `--only`,
 * `--diagnose`, `--before`).
 *
 * @module
 */

import { join } from "node:path";
import type { VariantInfo } from "./_mcp_output.ts";
import { FULL_MIDDLEWARE } from "./mcp_server.ts";

/** The revision a server's load speaks: 2025-11-25 sessions, or 2026-07-28 stateless requests. */
export type Revision = "2025" | "2026";

/** The `--revision` flag's value (`both` when not given); throws on anything else. */
export function parseRevision(value: string | undefined): Revision | "both" {
  const revision = value ?? "both";
  if (revision !== "2025" && revision !== "2026" && revision !== "both") {
    throw new Error("--revision must be 2025, 2026 or both");
  }
  return revision;
}

/** A server to measure and how to start it. */
export interface Variant extends VariantInfo {
  /** The revision the load speaks. */
  revision: Revision;
  /** `mcp_server.ts` arguments, or undefined for the FastMCP script. */
  args?: string[];
  /** The `mcp_server.ts` to run instead of this checkout's. */
  script?: string;
}

/** A server of the 2025 side, as a row `[key, label, about, mcp_server.ts arguments]`. */
type Row = [key: string, label: string, about: string, args?: string[]];

const OURS = ["--variant", "ours"];
const OURS_MW = ["--variant", "ours-mw", "--middleware", FULL_MIDDLEWARE];

const SIDE_2025: readonly Row[] = [
  ["a", "(a) SDK", "McpServer + WebStandardStreamableHTTPServerTransport in Deno.serve", [
    "--variant",
    "sdk",
  ]],
  ["b", "(b) ours", "createToolServer + toFetchHandler, no middleware", OURS],
  [
    "c",
    "(c) ours+mw",
    "(b) + audit (signed, temp file), circuit breaker, API-key auth, rate limit, timeout",
    OURS_MW,
  ],
  ["d", "(d) fastmcp", "FastMCP httpStream transport under Deno, its defaults"],
];

/** The 2026-07-28 side: the bare SDK v2, and (b)'s and (c)'s servers sent modern requests. */
const SIDE_2026: readonly Row[] = [
  [
    "a2",
    "(a2) SDK v2",
    "McpServer per request + createMcpHandler(legacy: reject) in Deno.serve",
    ["--variant", "sdk2"],
  ],
  ["b2", "(b2) ours", "(b)'s server, modern requests (the modern leg)", OURS],
  ["c2", "(c2) ours+mw", "(c)'s server, modern requests (the modern leg)", OURS_MW],
];

/** The main servers, in column order. */
export const MAIN: readonly Variant[] = [
  ...SIDE_2025.map(([key, label, about, args]) => ({ key, revision: "2025" as const, label, about, args })),
  ...SIDE_2026.map(([key, label, about, args]) => ({
    key,
    revision: "2026" as const,
    label,
    about: `2026-07-28: ${about}`,
    args,
  })),
];

/** The bare SDK each side's ratios are taken against. */
export const BASELINE: Readonly<Record<Revision, string>> = { "2025": "a", "2026": "a2" };

/** `--diagnose`: (b) with parts of (c)'s middleware, to see what each costs (2025 side). */
export const DIAGNOSTIC: readonly Variant[] = [
  ["mw-no-audit", "(c) without audit", "breaker,auth,rate,timeout"],
  ["audit", "audit only (signed, file)", "audit"],
  ["audit-mem", "audit only (signed, memory)", "audit-memory"],
  ["audit-unsig", "audit only (unsigned, file)", "audit-unsigned"],
  ["auth", "API-key auth only", "auth"],
  ["noop1", "one async middleware that only awaits next()", "noop"],
  ["noop5", "five async middleware that only await next()", "noop,noop,noop,noop,noop"],
].map(([key, about, list]) => ({
  key,
  revision: "2025" as const,
  label: key,
  about,
  args: ["--variant", "ours-mw", "--middleware", list],
}));

/** What the flags ask for. */
export interface VariantChoice {
  /** `--revision`: one side or both. */
  revision: Revision | "both";
  /** `--diagnose`: add {@linkcode DIAGNOSTIC}. */
  diagnose: boolean;
  /** `--only`: these keys (main or diagnostic) only. */
  only?: string[];
  /** `--before DIR`: add `c0`, (c) served by DIR's `bench/mcp_server.ts`. */
  before?: string;
}

/**
 * The servers to run, in column order: those of the revision (with the diagnostic ones when asked), or
 * the `only` keys; `c0` with `before`; and the bare SDK of every chosen server's side.
 */
export function chooseVariants(choice: VariantChoice): Variant[] {
  const inRevision = (v: Variant) => choice.revision === "both" || v.revision === choice.revision;
  const known = [...MAIN, ...DIAGNOSTIC];
  if (choice.before !== undefined) {
    const c = MAIN.find((v) => v.key === "c") as Variant;
    const script = join(choice.before, "bench", "mcp_server.ts");
    known.push({ ...c, key: "c0", label: "(c) before", about: `(c) served by ${choice.before}`, script });
  }
  const keys = new Set(
    choice.only ??
      known.filter((v) => MAIN.includes(v) || (choice.diagnose && DIAGNOSTIC.includes(v))).map((v) => v.key),
  );
  if (choice.before !== undefined) keys.add("c0");
  for (const key of keys) {
    const variant = known.find((v) => v.key === key);
    if (variant === undefined) throw new Error(`--only: unknown server '${key}'`);
    if (!inRevision(variant)) {
      if (choice.only) throw new Error(`--only: '${key}' is a ${variant.revision} server (--revision)`);
      keys.delete(key);
    } else keys.add(BASELINE[variant.revision]);
  }
  return known.filter((v) => keys.has(v.key));
}
