/**
 * Test helpers of the agent area: a parsed process config, and an in-process `AgentRuntime` whose agents run
 * on the local model server at `modelUrl` (provider `openai-compatible`), with a silent logger.
 *
 * @module
 */

import { Logger, memorySink } from "../log.ts";
import {
  AgentRuntime,
  parseProcessConfig,
  type ProcessConfig,
  type ProcessConfigInput,
} from "../runtime/mod.ts";
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

/** Parses `input` or throws with the issues (the agent area's view of the runtime's test helper). */
export function testConfig(input: ProcessConfigInput = {}): ProcessConfig {
  const parsed = parseProcessConfig(input);
  if (!parsed.ok) throw new Error(`bad test config: ${JSON.stringify(parsed.issues)}`);
  return parsed.config;
}
