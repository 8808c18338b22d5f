/**
 * The Deno permissions `agentry runtime start` needs, derived from its switches and manifests, and a
 * comparison with what the process holds.
 *
 * - net: always (the API binds a socket; agents reach model and MCP endpoints chosen at deploy time).
 * - read: the data dir, the manifests dir, and paths manifests name.
 * - write: the data dir and writable paths manifests name (journals, memory).
 * - env: the variables the command reads plus `--allow-env-var` names and names manifests reference;
 *   every variable with `--allow-env-references`. The `yaml` package's debug switches (LOG_STREAM,
 *   LOG_TOKENS) are never granted: `--ignore-env` makes their reads answer `undefined`.
 * - run: only with `--allow-command-deploys`.
 * - nothing else (no ffi, sys or import).
 *
 * @module
 */

import { YAML_DEBUG_VARIABLES } from "../_util/permission_hint.ts";

export { YAML_DEBUG_VARIABLES };

/** What the process needs. */
export interface PermissionPlan {
  /** Readable paths (absolute). */
  read: string[];
  /** Writable paths (absolute). */
  write: string[];
  /** Readable variables, or every variable. */
  env: string[] | "all";
  /** Whether programs may be started. */
  run: boolean;
}

/** Result of {@linkcode comparePermissions}. */
export interface PermissionCheck {
  /** Needed and not held, e.g. `read access to /srv/agents`. */
  missing: string[];
  /** Held for every path although the plan names paths: revocation cannot narrow these. */
  tooWide: Array<"read" | "write">;
  /** Every variable is readable although the plan names variables. */
  envTooWide: boolean;
}

/** The `deno run` permission flags for a plan. */
export function permissionFlags(plan: PermissionPlan): string[] {
  const flags = [
    "--allow-net",
    `--allow-read=${plan.read.join(",")}`,
    `--allow-write=${plan.write.join(",")}`,
  ];
  flags.push(plan.env === "all" ? "--allow-env" : `--allow-env=${plan.env.join(",")}`);
  if (plan.env !== "all") flags.push(`--ignore-env=${YAML_DEBUG_VARIABLES.join(",")}`);
  if (plan.run) flags.push("--allow-run");
  return flags;
}

/** Paths and variable names must not contain commas (Deno's list separator). */
export function planProblems(plan: PermissionPlan): string[] {
  const items = [...plan.read, ...plan.write, ...(plan.env === "all" ? [] : plan.env)];
  return items.filter((item) => item.includes(",")).map((item) => `${item} contains a comma`);
}

function granted(descriptor: Deno.PermissionDescriptor): boolean {
  return Deno.permissions.querySync(descriptor).state === "granted";
}

/** Compares the held permissions with the plan. */
export function comparePermissions(plan: PermissionPlan): PermissionCheck {
  const missing: string[] = [];
  if (!granted({ name: "net" })) missing.push("network access");
  for (const kind of ["read", "write"] as const) {
    for (const path of plan[kind]) {
      if (!granted({ name: kind, path })) missing.push(`${kind} access to ${path}`);
    }
  }
  if (plan.env === "all") {
    if (!granted({ name: "env" })) missing.push("reading every environment variable");
  } else {
    for (const variable of plan.env) {
      if (!granted({ name: "env", variable })) missing.push(`reading the variable ${variable}`);
    }
  }
  if (plan.run && !granted({ name: "run" })) missing.push("starting programs");
  return {
    missing,
    tooWide: (["read", "write"] as const).filter((kind) => granted({ name: kind })),
    envTooWide: plan.env !== "all" && granted({ name: "env" }),
  };
}

/**
 * Revokes every permission the plan does not need that revocation can remove: run (unless the plan
 * needs it), ffi, sys and import, and every variable when `revokeEnv` (after the caller has read the
 * variables it needs).
 */
export async function revokeUnneeded(plan: PermissionPlan, options: { revokeEnv: boolean }): Promise<void> {
  const names: string[] = ["ffi", "sys", "import"];
  if (!plan.run) names.push("run");
  if (options.revokeEnv) names.push("env");
  for (const name of names) {
    try {
      await Deno.permissions.revoke({ name } as Deno.PermissionDescriptor);
    } catch {
      // a permission kind this Deno does not know: nothing to revoke
    }
  }
}

/** Revokes every permission (a supervising parent that only waits for its child). */
export async function revokeAll(): Promise<void> {
  for (const name of ["read", "write", "net", "env", "run", "ffi", "sys", "import"]) {
    try {
      await Deno.permissions.revoke({ name } as Deno.PermissionDescriptor);
    } catch {
      // unknown kind
    }
  }
}

/** A one-line description of the plan for the log. */
export function describePlan(plan: PermissionPlan): string {
  const env = plan.env === "all" ? "all" : plan.env.join(",");
  return `net=all read=${plan.read.join(",")} write=${plan.write.join(",")} env=${env} run=${
    plan.run ? "all" : "none"
  }`;
}
