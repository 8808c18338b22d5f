/**
 * What a started process's agent holds between runs: its model client, its MCP connections and its
 * payload scanner.
 *
 * @module
 */

import type { ModelClient } from "../models/mod.ts";
import type { TextScanner } from "../guardrails/mod.ts";
import type { McpConnections } from "./mcp/mod.ts";
import type { OpenMode } from "./open_mode/mod.ts";
import type { MissionJudge } from "../runtime/mod.ts";

/** The live parts of one started agent. */
export interface AgentSession {
  /** The model. */
  client: ModelClient;
  /** Connected MCP servers; undefined when the config has none. */
  connections: McpConnections | undefined;
  /** Scans trigger payloads; undefined when nothing is scanned. */
  scanner: TextScanner | undefined;
  /** Open mode (issue 12): the start's self-changes; undefined unless `execution_mode` is "open". */
  openMode?: OpenMode;
  /** Mission (issue 13): calls the judge model (`eval_model`, or this agent's model when null). */
  judge?: MissionJudge;
}
