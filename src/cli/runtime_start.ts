/**
 * `agentry runtime start`: serve the control API until SIGINT, SIGTERM or `POST /runtime/shutdown`.
 *
 * @module
 */

import { join, resolve } from "node:path";
import { describeError } from "../_util/errors.ts";
import { randomHex } from "../_util/ids.ts";
import { Logger } from "../log.ts";
import { apiEnvLookup, ControlServer } from "../api/mod.ts";
import { consoleHandler } from "../console/mod.ts";
import {
  AgentRuntime,
  configPaths,
  type EnvLookup,
  FileProcessStore,
  isCommandHook,
  isProgramServer,
  isRuntimeError,
  loadManifests,
  type Manifest,
  manifestEnvReferences,
  Spool,
} from "../runtime/mod.ts";
import { createTriggersPart, EventBus } from "../triggers/mod.ts";
import { createAgentRunner } from "../agent/mod.ts";
import { ProviderRegistry } from "../models/mod.ts";
import { VERSION } from "../version.ts";
import type { CliContext } from "./cli_context.ts";
import { BufferedSink } from "./buffered_sink.ts";
import {
  comparePermissions,
  describePlan,
  permissionFlags,
  type PermissionPlan,
  planProblems,
  revokeUnneeded,
} from "./permissions.ts";
import { canRelaunch, parentGone, relaunch, RELAUNCHED_VARIABLE } from "./relaunch.ts";
import { parseStartArgs, RUNTIME_START_HELP, type StartOptions } from "./runtime_start_args.ts";
import { CliFailure, EXIT } from "./exit.ts";
import { lockDataDir } from "./data_dir_lock.ts";
import { removeTokenFile, writeTokenFile } from "./token_file.ts";

/** The variable read for the token when `--token` is not given. */
export const TOKEN_VARIABLE = "AGENTRY_API_TOKEN";

/**
 * Variables read when a stdio MCP server is started: the MCP SDK builds the program's base environment from
 * HOME, LOGNAME, PATH, SHELL, TERM and USER; its command lookup reads OSTYPE and Node's child_process reads
 * NODE_V8_COVERAGE. Granted only when programs may be started.
 */
export const STDIO_VARIABLES: readonly string[] = [
  "HOME",
  "LOGNAME",
  "NODE_V8_COVERAGE",
  "OSTYPE",
  "PATH",
  "SHELL",
  "TERM",
  "USER",
];

/** Variables the built-in model providers read (keys and base URLs), never visible to deployed configs. */
export const MODEL_VARIABLES: readonly string[] = new ProviderRegistry().variables();

const REFERENCE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** Runs `agentry runtime start` with the arguments after `start`. */
export async function runtimeStart(args: readonly string[], ctx: CliContext): Promise<number> {
  const options = parseStartArgs(args);
  if (options.help) {
    ctx.stdout(RUNTIME_START_HELP.trimEnd());
    return EXIT.ok;
  }
  const basePlan = planFor(options, []);
  const relaunched = ctx.env(RELAUNCHED_VARIABLE) === "1";
  let check = comparePermissions(basePlan);
  if (check.tooWide.length > 0 && !relaunched && canRelaunch()) {
    const manifests = options.manifests ? await readManifests(options.manifests) : [];
    return await relaunch(planFor(options, manifests), ctx.args, { signal: ctx.signal });
  }
  refuseMissing(check.missing, basePlan, ctx);
  const manifests = options.manifests ? await readManifests(options.manifests) : [];
  const plan = planFor(options, manifests);
  check = comparePermissions(plan);
  refuseMissing(check.missing, plan, ctx);
  const problems = planProblems(plan);
  if (problems.length > 0) throw new CliFailure(`cannot grant permissions: ${problems.join("; ")}`);
  const env = snapshotEnv(plan, ctx.env);
  await revokeUnneeded(plan, { revokeEnv: check.envTooWide });

  const sink = new BufferedSink(ctx.stderr);
  const logger = new Logger("agentry", { level: options.logLevel, sink: sink.sink });
  logger.info("permissions", { plan: describePlan(plan) });
  logger.info("durability", { fsync: options.fsync }); // --fsync: acknowledged writes fdatasync'ed
  for (const kind of check.tooWide) {
    logger.warning(`${kind} access is granted for every path and cannot be narrowed here`, {
      hint: `run with ${permissionFlags(plan).join(" ")}`,
    });
  }
  const token = resolveToken(options, env);
  await Deno.mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  // One runtime per data directory (issue 13): a second one exits 1 here, naming the holder's pid.
  await using _lock = await lockDataDir(options.dataDir);
  const runner = createAgentRunner({ env: modelEnv(env) });
  // One bus for event triggers and escalations (escalation.event_type), so an agent can react to another's.
  const eventBus = new EventBus({ logger: logger.child("events") });
  const runtime = new AgentRuntime({
    dataDir: options.dataDir,
    logger,
    env,
    store: new FileProcessStore(join(options.dataDir, "processes"), { sync: options.fsync }),
    spool: new Spool({
      dir: join(options.dataDir, "queues"),
      sync: options.fsync,
      logger: logger.child("spool"),
    }),
    fsync: options.fsync,
    parts: [runner.part, createTriggersPart({ eventBus })],
    events: eventBus,
    invoker: runner.invoker,
    checkConfig: runner.checkConfig,
  });
  const shutdown = Promise.withResolvers<void>();
  const server = new ControlServer(runtime, {
    headTimeoutMs: options.headTimeout === undefined ? undefined : options.headTimeout * 1000,
    host: options.host,
    port: options.port,
    authToken: token.value,
    onShutdown: () => shutdown.resolve(),
    allowCommandDeploys: options.allowCommandDeploys,
    allowEnvReferences: options.allowEnvReferences,
    allowedEnvVars: options.allowEnvVars,
    dataDir: options.dataDir,
    env,
    front: options.noConsole ? undefined : consoleHandler(),
  });
  try {
    await server.start();
  } catch (error) {
    throw new CliFailure(`cannot listen on ${options.host}:${options.port}: ${listenProblem(error)}`);
  }
  try {
    await deployManifests(runtime, manifests, logger);
    await runtime.restore({
      env: apiEnvLookup({ ...options, allowedEnvVars: new Set(options.allowEnvVars), env }),
    });
    const tokenFile = await keepToken(options.dataDir, token);
    announce(ctx, options, server.url, token, tokenFile);
    sink.flush();
    // A relaunched child also stops when its parent dies (issue 14: it must not keep serving alone).
    const orphaned = relaunched ? parentGone().then(() => "parent exited") : new Promise<never>(() => {});
    const reason = await Promise.race([
      shutdown.promise.then(() => "shutdown route"),
      aborted(ctx.signal),
      orphaned,
    ]);
    logger.info("shutting down", { reason: ctx.signal.aborted ? String(ctx.signal.reason) : reason });
  } finally {
    sink.flush();
    await server.stop();
    await runtime.close();
  }
  ctx.stderr("agentry: stopped");
  return EXIT.ok;
}

/** The permissions `runtime start` needs for these options and manifests. */
export function planFor(options: StartOptions, manifests: readonly Manifest[]): PermissionPlan {
  const read = new Set([options.dataDir]);
  const write = new Set([options.dataDir]);
  if (options.manifests) read.add(options.manifests);
  const env = new Set([
    TOKEN_VARIABLE,
    RELAUNCHED_VARIABLE,
    ...MODEL_VARIABLES,
    ...options.allowEnvVars,
  ]);
  const tokenReference = options.token ? REFERENCE.exec(options.token)?.[1] : undefined;
  if (tokenReference) env.add(tokenReference);
  for (const manifest of manifests) {
    for (const path of configPaths(manifest.config)) {
      read.add(resolve(path.path));
      if (path.write) write.add(resolve(path.path));
    }
    for (const name of manifestEnvReferences(manifest)) env.add(name);
  }
  const run = options.allowCommandDeploys || manifests.some((manifest) => startsPrograms(manifest.config));
  if (run) { for (const name of STDIO_VARIABLES) env.add(name); }
  return {
    read: [...read],
    write: [...write],
    env: options.allowEnvReferences ? "all" : [...env],
    run,
  };
}

/** Whether a config starts programs on the host (stdio MCP servers, command hooks, open-mode created tools). */
function startsPrograms(config: Manifest["config"]): boolean {
  return Object.values(config.servers).some(isProgramServer) || config.hooks.some(isCommandHook) ||
    (config.execution_mode === "open" && config.open_mode.allow_tool_creation);
}

/** Only the model providers' variables, from the snapshot. */
function modelEnv(env: EnvLookup): EnvLookup {
  const names = new Set(MODEL_VARIABLES);
  return (name) => names.has(name) ? env(name) : undefined;
}

function refuseMissing(missing: string[], plan: PermissionPlan, ctx: CliContext): void {
  if (missing.length === 0) return;
  const flags = permissionFlags(plan).join(" ");
  if (Deno.build.standalone) {
    throw new CliFailure(
      `missing Deno permissions: ${missing.join("; ")}. This binary was compiled with fixed permissions ` +
        `(state in ./.agentry); build one for these switches with: deno compile ${flags} main.ts`,
    );
  }
  const command = `deno run ${flags} main.ts ${ctx.args.join(" ")}`.trim();
  throw new CliFailure(`missing Deno permissions: ${missing.join("; ")}. Run: ${command}`);
}

async function readManifests(dir: string): Promise<Manifest[]> {
  try {
    return await loadManifests(dir);
  } catch (error) {
    throw new CliFailure(`cannot load manifests: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Reads the plan's variables once; afterwards only these resolve (all of them with `all`). */
function snapshotEnv(plan: PermissionPlan, env: EnvLookup): EnvLookup {
  if (plan.env === "all") return env;
  const values = new Map<string, string>();
  for (const name of plan.env) {
    const value = env(name);
    if (value !== undefined) values.set(name, value);
  }
  return (name) => values.get(name);
}

interface Token {
  value: string | undefined;
  generated: boolean;
}

function resolveToken(options: StartOptions, env: EnvLookup): Token {
  if (options.noToken) return { value: undefined, generated: false };
  const given = options.token ?? env(TOKEN_VARIABLE);
  if (given === undefined || given === "") return { value: randomHex(24), generated: true };
  const reference = REFERENCE.exec(given)?.[1];
  if (!reference) return { value: given, generated: false };
  const value = env(reference);
  if (!value) throw new CliFailure(`the token names the unset variable ${reference}`);
  return { value, generated: false };
}

async function deployManifests(runtime: AgentRuntime, manifests: readonly Manifest[], logger: Logger) {
  for (const manifest of manifests) {
    try {
      await runtime.deploy(manifest.name, manifest.config, { source: "manifest", start: manifest.start });
    } catch (error) {
      if (isRuntimeError(error, "INVALID_CONFIG")) {
        // An invalid manifest stops the start (docs/cli.md): an unset ${VAR}, a secret too short.
        const issues = error.details.issues.map((issue) => `${issue.field}: ${issue.expected}`);
        throw new CliFailure(`cannot load manifests: ${manifest.file}: ${issues.join("; ")}`);
      }
      logger.error("manifest process failed", {
        process: manifest.name,
        file: manifest.file,
        error: describeError(error),
      });
    }
  }
}

/** Writes a generated token to the data dir (see token_file.ts); removes a stale one otherwise. */
async function keepToken(dataDir: string, token: Token): Promise<string | undefined> {
  if (token.generated && token.value !== undefined) return await writeTokenFile(dataDir, token.value);
  await removeTokenFile(dataDir);
  return undefined;
}

function announce(
  ctx: CliContext,
  options: StartOptions,
  url: string,
  token: Token,
  tokenFile?: string,
): void {
  ctx.stderr(`agentry ${VERSION}: control API listening on ${url}`);
  if (!options.noConsole) ctx.stderr(`agentry: web console at ${url}/console/`);
  if (options.json) ctx.stdout(JSON.stringify({ url, token: token.value ?? null }));
  else if (token.generated) {
    ctx.stderr(`agentry: API token (generated; also in ${tokenFile}, owner-only): ${token.value}`);
  } else if (token.value === undefined) {
    ctx.stderr("agentry: no API token (--no-token): loopback clients need none");
  }
}

function listenProblem(error: unknown): string {
  if (error instanceof Deno.errors.AddrInUse) return "the address is already in use";
  if (error instanceof Deno.errors.AddrNotAvailable) return "the address is not available on this machine";
  if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
    return "permission denied";
  }
  return describeError(error);
}

function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}
