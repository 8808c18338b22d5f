/**
 * Side A of the agent-run benchmark: an `AgentRuntime` in this process with the triggers part (sharing one
 * `EventBus`) and the agent runner (`createAgentRunner`, provider `openai-compatible` pointed at the
 * benchmark's model server), one deployed and started process per variant, each with an `event` trigger of
 * its own event type. A run is fired by emitting a bus event and ends when the runner's invoker settles:
 * trigger -> trigger listener -> process queue -> worker -> prompt -> model (-> MCP tool -> model) -> reply,
 * without the webhook's HTTP path (it has its own benchmark).
 *
 * @module
 */

import {
  AgentRuntime,
  createAgentRunner,
  type Invoker,
  Logger,
  parseProcessConfig,
  type RunResult,
} from "../mod.ts";
import { createTriggersPart, EventBus, type EventTriggerPayload } from "../src/triggers/mod.ts";
import { LOOKUP_TASK, MCP_SERVER_NAME, PLAIN_REPLY, TOOL_REPLY } from "./run_model_server.ts";

/** Instructions of every benchmark process (and of the bare loop's captured prompt). */
export const INSTRUCTIONS = "You are the orders agent. Answer briefly. Look orders up with your tools " +
  "when the event asks for it, then say what you found.";

/** One variant of the agent process. */
export interface AgentVariant {
  /** Process name and event type. */
  name: string;
  /** Workers. */
  concurrency: number;
  /** One MCP tool step per run. */
  tool: boolean;
  /** Extra config fields (`stream`, `journal`, `context`...), merged over the defaults below. */
  extra?: Record<string, unknown>;
}

/** Outcome of one run as the driver sees it. */
export interface RunOutcome {
  /** The run succeeded with the expected reply. */
  ok: boolean;
}

/** The runtime and a way to fire runs of each variant. */
export interface AgentSide extends AsyncDisposable {
  /** Fires one run of `variant` and resolves when it ends. */
  fire(variant: AgentVariant): Promise<RunOutcome>;
}

interface Waiter {
  resolve: (outcome: RunOutcome) => void;
  expected: string;
}

/** Starts the runtime and deploys every variant (started). `fetch` is the model clients' fetch. */
export async function startAgentSide(options: {
  modelUrl: string;
  mcpUrl: string;
  dataDir: string;
  variants: readonly AgentVariant[];
  fetch?: typeof fetch;
}): Promise<AgentSide> {
  const env = (name: string) => (name === "OPENAI_COMPATIBLE_BASE_URL" ? options.modelUrl : undefined);
  const runner = createAgentRunner({ env, fetch: options.fetch });
  const waiters = new Map<number, Waiter>();
  const settle = (run: Parameters<Invoker>[0], result: RunResult | undefined) => {
    const n = (run.event.payload as EventTriggerPayload).data.n as number;
    const waiter = waiters.get(n);
    if (!waiter) return;
    waiters.delete(n);
    waiter.resolve({ ok: result?.response === waiter.expected });
  };
  const invoker: Invoker = (run) =>
    runner.invoker(run).then((result) => {
      settle(run, result ?? undefined);
      return result;
    }, (error) => {
      settle(run, undefined);
      throw error;
    });
  const bus = new EventBus();
  const runtime = new AgentRuntime({
    dataDir: options.dataDir,
    logger: new Logger("agentry", { level: "error" }),
    parts: [createTriggersPart({ eventBus: bus }), runner.part],
    invoker,
    checkConfig: runner.checkConfig,
  });
  try {
    for (const variant of options.variants) {
      const parsed = parseProcessConfig({
        model: "openai-compatible:bench",
        instructions: INSTRUCTIONS,
        stream: false,
        concurrency: variant.concurrency,
        context: { conversation_history: false },
        trigger_delivery: { max_retries: 0, max_consecutive_failures: 1_000_000 },
        servers: variant.tool ? { [MCP_SERVER_NAME]: { url: options.mcpUrl } } : {},
        triggers: [{ type: "event", event_type: variant.name }],
        ...variant.extra,
      });
      if (!parsed.ok) throw new Error(`bad config for ${variant.name}: ${JSON.stringify(parsed.issues)}`);
      await runtime.deploy(variant.name, parsed.config, { start: true });
    }
  } catch (error) {
    await runtime.close();
    throw error;
  }
  let seq = 0;
  return {
    fire(variant) {
      const n = ++seq;
      const { promise, resolve } = Promise.withResolvers<RunOutcome>();
      waiters.set(n, { resolve, expected: variant.tool ? TOOL_REPLY : PLAIN_REPLY });
      const task = variant.tool ? LOOKUP_TASK : "note";
      bus.emit({ event_type: variant.name, source: "bench", data: { n, order_id: 42, task } });
      return promise;
    },
    async [Symbol.asyncDispose]() {
      await runtime.close();
    },
  };
}
