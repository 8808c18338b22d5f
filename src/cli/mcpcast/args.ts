/**
 * Arguments of `agentry mcpcast`.
 *
 * @module
 */

import { resolve } from "node:path";
import {
  API_NAME_PATTERN,
  type ApprovalMode,
  type AuthMode,
  type OperationSelection,
  type SafetyProfile,
} from "../../mcpcast/mod.ts";
import { UsageError } from "../exit.ts";
import { parseFlags } from "../parse_flags.ts";
import { checkFrameworkImport } from "./framework_import.ts";
import { CURATED_MAX_TOOLS, type ModelArgs, modelArgs } from "./args_model.ts";

export { MCPCAST_HELP } from "./help.ts";

/** What the command does. */
export type McpcastMode = "spec" | "plan" | "wizard";

/** Parsed and checked options of `agentry mcpcast`. */
export interface McpcastArgs extends Partial<ModelArgs> {
  /** `spec` (SOURCE), `plan` (`--plan FILE`) or `wizard` (no SOURCE, or `--interactive`). */
  mode: McpcastMode;
  /** SOURCE as given (a path or URL). */
  source?: string;
  /** `--plan FILE`, resolved against the current directory. */
  planFile?: string;
  /** `--out DIR` as given. */
  out?: string;
  /** `--force`. */
  force: boolean;
  /** `--profile`. */
  profile?: SafetyProfile;
  /** `--auth`. */
  auth?: AuthMode;
  /** `--approval`. */
  approval?: ApprovalMode;
  /** `--base-url`. */
  baseUrl?: string;
  /** `--external-refs` / `--allow-ref-host`: present only when either is given. */
  externalRefs?: { allowHosts: string[] };
  /** `--name`. */
  name?: string;
  /** `--max-tools` (with a curating `--model`, 25 when not given). */
  maxTools?: number;
  /** `--tag` / `--path`: present only when either is given. */
  select?: OperationSelection;
  /** `--framework-import`: a specifier as given, or a checkout's path as its absolute `file:` URL. */
  frameworkImport?: string;
  /** `--plan-only`. */
  planOnly: boolean;
  /** `--review`. */
  review: boolean;
  /** `--json`. */
  json: boolean;
  /** `--help`. */
  help: boolean;
}

/** Safety profiles, in the order the help lists them. */
const PROFILES: readonly SafetyProfile[] = ["read-only", "standard", "full"];
/** Auth modes, in the order the help lists them. */
const AUTH_MODES: readonly AuthMode[] = ["passthrough", "env-token", "api-key", "none"];
const APPROVAL_MODES: readonly ApprovalMode[] = ["elicitation", "pending"];
/** Flags that shape a plan from a spec; a `--plan` already holds their answers. */
const SPEC_ONLY = [
  "profile",
  "auth",
  "approval",
  "base-url",
  "name",
  "max-tools",
  "tag",
  "path",
  "external-refs",
  "allow-ref-host",
  "no-curate",
  "descriptions",
  "tool-mode",
] as const;
/** Flags the wizard accepts as pre-filled answers. */
const WIZARD_FLAGS = new Set([
  "interactive",
  "base-url",
  "out",
  "force",
  "framework-import",
  "no-curate",
  "model",
  "help",
]);

function parse(args: readonly string[]) {
  return parseFlags(args, {
    positionals: true,
    flags: {
      out: { type: "string", short: "o" },
      force: { type: "boolean" },
      profile: { type: "string" },
      auth: { type: "string" },
      approval: { type: "string" },
      "base-url": { type: "string" },
      "external-refs": { type: "boolean" },
      "allow-ref-host": { type: "string", multiple: true },
      name: { type: "string" },
      "max-tools": { type: "string" },
      tag: { type: "string", multiple: true },
      path: { type: "string", multiple: true },
      "framework-import": { type: "string" },
      plan: { type: "string" },
      "plan-only": { type: "boolean" },
      "no-curate": { type: "boolean" },
      model: { type: "string" },
      eval: { type: "boolean" },
      "eval-tasks": { type: "string" },
      "eval-offline": { type: "boolean" },
      descriptions: { type: "string" },
      "tool-mode": { type: "string" },
      review: { type: "boolean" },
      interactive: { type: "boolean", short: "i" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}

function oneOf<T extends string>(
  flag: string,
  value: string | undefined,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${flag} must be ${allowed.slice(0, -1).join(", ")} or ${allowed.at(-1)}`);
  }
  return value as T;
}

function checkBaseUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  // The value is never echoed: it may carry credentials.
  let url: URL | undefined;
  try {
    url = new URL(value.trim());
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new UsageError("--base-url must be an absolute http(s) URL");
  }
  return value.trim();
}

function checkMaxTools(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,9}$/.test(value) || Number(value) < 1) {
    throw new UsageError("--max-tools must be an integer of at least 1");
  }
  return Number(value);
}

function checkName(value: string | undefined): string | undefined {
  if (value === undefined || API_NAME_PATTERN.test(value)) return value;
  throw new UsageError(
    "--name must be 1 to 63 lower-case letters, digits, '-' or '_', starting with a letter or digit",
  );
}

/** A host or host:port: a name or IPv4 address, or a bracketed IPv6 address, with an optional port. */
const REF_HOST =
  /^([a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(:\d{1,5})?$/i;

function checkExternalRefs(on: boolean | undefined, hosts: string[] | undefined) {
  if (!on && hosts === undefined) return {};
  const allowHosts = (hosts ?? []).map((host) => host.trim());
  if (allowHosts.some((host) => !REF_HOST.test(host))) {
    throw new UsageError("--allow-ref-host must be a host or host:port (no scheme, path or credentials)");
  }
  return { externalRefs: { allowHosts } };
}

function nonEmpty(flag: string, value: string | undefined): string | undefined {
  if (value !== undefined && value.trim() === "") throw new UsageError(`--${flag} must not be empty`);
  return value;
}

/** The mode the arguments ask for, refusing combinations that do not fit it. */
function modeOf(values: Record<string, unknown>, source: string | undefined): McpcastMode {
  const given = Object.keys(values).filter((flag) => values[flag] !== undefined);
  if (values.interactive || (source === undefined && values.plan === undefined)) {
    if (values.plan !== undefined && values.interactive) {
      throw new UsageError("--interactive takes no --plan");
    }
    const refused = given.find((flag) => !WIZARD_FLAGS.has(flag));
    if (refused !== undefined) {
      throw new UsageError(
        source === undefined && !values.interactive
          ? `mcpcast needs SOURCE or --plan FILE (run it without arguments on a terminal for the guided setup)`
          : `--${refused} does not apply to the guided setup${
            refused === "external-refs" || refused === "allow-ref-host"
              ? " (it reads self-contained specs; run without -i to follow external refs)"
              : " (it asks for that)"
          }; it takes SOURCE, --base-url, --out, --force, --framework-import and --model`,
      );
    }
    return "wizard";
  }
  if (values.plan === undefined) return "spec";
  if (source !== undefined) throw new UsageError("give SOURCE or --plan FILE, not both");
  const specOnly = SPEC_ONLY.find((flag) => values[flag] !== undefined);
  if (specOnly !== undefined) {
    throw new UsageError(`--${specOnly} shapes a plan from a spec; with --plan, edit the plan file instead`);
  }
  if (values["plan-only"]) throw new UsageError("--plan-only needs SOURCE (a spec), not --plan");
  return "plan";
}

/** `--tag` and `--path`, checked: non-empty tags, prefixes starting with `/`. */
function checkSelection(
  tags: string[] | undefined,
  paths: string[] | undefined,
): { select?: OperationSelection } {
  if (tags === undefined && paths === undefined) return {};
  if (tags?.some((tag) => tag.trim() === "")) throw new UsageError("--tag must not be empty");
  if (paths?.some((path) => !path.startsWith("/"))) throw new UsageError("--path must start with '/'");
  return { select: { tags: tags?.map((tag) => tag.trim()) ?? [], paths: paths ?? [] } };
}

/** Parses the arguments after `mcpcast`; throws {@linkcode UsageError}. */
export function parseMcpcastArgs(args: readonly string[]): McpcastArgs {
  const { values, positionals } = parse(args);
  const help = values.help ?? false;
  const base = { force: false, planOnly: false, review: false, json: false, help };
  if (help) return { mode: "spec", ...base };
  if (positionals.length > 1) throw new UsageError("mcpcast takes one SOURCE");
  const source = positionals[0];
  if (source !== undefined && source.trim() === "") throw new UsageError("SOURCE must not be empty");
  const mode = modeOf(values, source);
  const profile = oneOf("profile", values.profile, PROFILES);
  const auth = oneOf("auth", values.auth, AUTH_MODES);
  const approval = oneOf("approval", values.approval, APPROVAL_MODES);
  if (approval === "pending" && auth !== "api-key") {
    throw new UsageError("--approval pending needs --auth api-key (a reviewer among the tenants decides)");
  }
  const plan = nonEmpty("plan", values.plan);
  const frameworkImport = checkFrameworkImport(values["framework-import"]);
  const model = modelArgs(values, mode === "plan");
  const maxTools = checkMaxTools(values["max-tools"]) ?? (model.curate ? CURATED_MAX_TOOLS : undefined);
  return {
    mode,
    ...(source === undefined ? {} : { source }),
    ...(plan === undefined ? {} : { planFile: resolve(plan) }),
    ...(nonEmpty("out", values.out) === undefined ? {} : { out: values.out }),
    ...base,
    force: values.force ?? false,
    profile,
    auth,
    approval,
    baseUrl: checkBaseUrl(values["base-url"]),
    ...checkExternalRefs(values["external-refs"], values["allow-ref-host"]),
    name: checkName(values.name),
    maxTools,
    ...checkSelection(values.tag, values.path),
    ...(frameworkImport === undefined ? {} : { frameworkImport }),
    planOnly: values["plan-only"] ?? false,
    review: values.review ?? false,
    json: values.json ?? false,
    ...model,
  };
}
