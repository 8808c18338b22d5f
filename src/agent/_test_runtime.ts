/**
 * Test helper: an in-process `AgentRuntime` whose agents run on the local model server at `modelUrl`
 * (provider `openai-compatible`), with a silent logger.
 *
 * @module
 */

import { Logger, memorySink } from "../log.ts";
import { AgentRuntime } from "../runtime/mod.ts";
import { createAgentRunner } from "./agent_runner.ts";

/** A runtime in `dataDir` running agents against `modelUrl`. */
export function agentRuntime(modelUrl: string, dataDir: string): AgentRuntime {
  const runner = createAgentRunner({
    env: (name) => name === "OPENAI_COMPATIBLE_BASE_URL" ? modelUrl : undefined,
  });
  return new AgentRuntime({
    dataDir,
    logger: new Logger("t", { sink: memorySink() }),
    parts: [runner.part],
    invoker: runner.invoker,
    checkConfig: runner.checkConfig,
  });
}
