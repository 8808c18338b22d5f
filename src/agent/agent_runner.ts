/**
 * The agent runner: plugs real agents into the runtime. {@linkcode createAgentRunner} answers a process
 * part (started with each process: it resolves the model client, connects the MCP servers and builds the
 * payload scanner; any failure fails the start) and the invoker that runs one event through the prompt,
 * the model and the tool loop.
 *
 * @module
 */

import { type EnvLookup, type ModelClient, parseModelString, ProviderRegistry } from "../models/mod.ts";
import type {
  ConfigIssue,
  Invoker,
  MissionJudge,
  PartContext,
  ProcessConfig,
  ProcessPart,
  ProcessPartFactory,
} from "../runtime/mod.ts";
import { createInjectionScanner, createScanner, type TextScanner } from "../guardrails/mod.ts";
import { McpConnections } from "./mcp/mod.ts";
import type { AgentSession } from "./agent_session.ts";
import { runAgent } from "./run_agent.ts";
import { secretReferenceIssues, withServerSecrets } from "./server_secrets.ts";
import { attachOpenMode, OpenMode } from "./open_mode/mod.ts";

/** Options of {@linkcode createAgentRunner}. */
export interface AgentRunnerOptions {
  /** Model providers. @default the built-in ones (openai, anthropic, ollama, openai-compatible) */
  registry?: ProviderRegistry;
  /** The host environment the providers read their keys and base URLs from. */
  env: EnvLookup;
  /** fetch for model requests. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Bounds of MCP connections. */
  mcp?: { connectTimeoutMs?: number; callTimeoutMs?: number };
}

/** The runner's two halves, for `AgentRuntime`'s `parts` and `invoker` options. */
export interface AgentRunner {
  /** The `agent` part. */
  part: ProcessPartFactory;
  /** Runs one event. */
  invoker: Invoker;
  /** The registry. */
  registry: ProviderRegistry;
  /** For `AgentRuntime`'s `checkConfig`: an unknown model provider is an issue of the `model` field. */
  checkConfig: (config: ProcessConfig) => ConfigIssue[];
}

/**
 * A runner whose processes call real models and MCP servers.
 *
 * @example
 * ```ts
 * import { AgentRuntime } from "@agentry/agentry";
 * import { createAgentRunner } from "@agentry/agentry";
 * // The providers read their keys and base URLs only through `env`.
 * const settings: Record<string, string> = { OLLAMA_HOST: "http://127.0.0.1:11434" };
 * const runner = createAgentRunner({ env: (name) => settings[name] });
 * const runtime = new AgentRuntime({
 *   parts: [runner.part],
 *   invoker: runner.invoker,
 *   checkConfig: runner.checkConfig,
 * });
 * ```
 */
export function createAgentRunner(options: AgentRunnerOptions): AgentRunner {
  const registry = options.registry ?? new ProviderRegistry();
  const sessions = new Map<string, AgentSession>();
  const part: ProcessPartFactory = (context) => agentPart(context, { ...options, registry, sessions });
  const invoker: Invoker = (run) => {
    const session = sessions.get(run.processId);
    if (!session) return Promise.reject(new Error(`process ${run.name} has no started agent`));
    return runAgent(run, session);
  };
  const checkConfig = (config: ProcessConfig): ConfigIssue[] => {
    const issues = secretReferenceIssues(config);
    if (registry.has(providerOf(config.model))) return issues;
    return [{
      field: "model",
      expected: `a model of a known provider (${registry.names().join(", ")}), as <provider>:<model>`,
    }, ...issues];
  };
  return { part, invoker, registry, checkConfig };
}

interface PartOptions extends AgentRunnerOptions {
  registry: ProviderRegistry;
  sessions: Map<string, AgentSession>;
}

function agentPart(context: PartContext, options: PartOptions): ProcessPart {
  const { config, logger } = context;
  let connections: McpConnections | undefined;
  let openMode: OpenMode | undefined;
  let model = "";
  const part: ProcessPart = {
    name: "agent",
    async start() {
      const client = options.registry.resolve(config.model, { env: options.env, fetch: options.fetch });
      model = `${client.provider}:${client.model}`;
      const servers = withServerSecrets(config.servers, (name) => context.secrets.get(name));
      connections = Object.keys(servers).length === 0 ? undefined : await McpConnections.connect(
        servers,
        {
          logger: logger.child("mcp"),
          connectTimeoutMs: options.mcp?.connectTimeoutMs,
          callTimeoutMs: options.mcp?.callTimeoutMs,
          clientInfo: { name: `agentry-${context.name}`, version: "1" },
        },
      );
      // Open mode (issue 12): the start's self-changes, reachable by the rollback route.
      if (config.execution_mode === "open") {
        openMode = new OpenMode(context, { mcp: options.mcp });
        attachOpenMode(part, openMode);
      }
      options.sessions.set(context.processId, {
        client,
        connections,
        scanner: payloadScanner(context),
        openMode,
        judge: missionJudge(client, options), // Mission (issue 13)
      });
    },
    async stop() {
      options.sessions.delete(context.processId);
      await openMode?.close();
      openMode = undefined;
      await connections?.close();
      connections = undefined;
    },
    status() {
      return {
        model,
        servers: connections?.status() ?? {},
        tools: connections?.tools().length ?? 0,
      };
    },
  };
  return part;
}

/** The scanner of trigger payloads: `guardrails` when configured, else the injection scanner when asked for. */
function payloadScanner(context: PartContext): TextScanner | undefined {
  const { guardrails, trigger_delivery } = context.config;
  if (guardrails) return createScanner(guardrails);
  if (trigger_delivery.scan_payloads) return createInjectionScanner();
  return undefined;
}

/**
 * Mission (issue 13): the judge calls `eval_model` (resolved from the registry, once per model) or the
 * agent's own client, with no tools, and answers the reply text.
 */
function missionJudge(client: ModelClient, options: PartOptions): MissionJudge {
  const clients = new Map<string, ModelClient>();
  return async (request) => {
    let judge = client;
    if (request.model !== null) {
      judge = clients.get(request.model) ??
        options.registry.resolve(request.model, { env: options.env, fetch: options.fetch });
      clients.set(request.model, judge);
    }
    const turn = await judge.complete({
      messages: [{ role: "system", content: request.system }, { role: "user", content: request.user }],
      tools: [],
      signal: request.signal,
    });
    return turn.text;
  };
}

function providerOf(model: string): string {
  try {
    return parseModelString(model).provider;
  } catch {
    return "";
  }
}
