/**
 * OpenModeConfig: what an agent in `execution_mode: "open"` may change about itself.
 * Consulted only in open mode.
 *
 * @module
 */

import type { z } from "zod";
import { boolean, httpUrl, integer, list, type Resolved, strictObject } from "./_fields.ts";
import { exactly } from "../../_util/schema_proof.ts";

/** The `open_mode` section as written. Every field is optional; the section only matters in open mode. */
export interface OpenModeConfigInput {
  /**
   * Let the agent write new tools (`create_tool`). Their code runs on the host, in a Deno Worker with every
   * permission off and a time limit (no memory limit), so API deploys need `--allow-command-deploys` while
   * this is on.
   * @default true
   */
  allow_tool_creation?: boolean;
  /**
   * Let the agent connect further MCP servers (`connect_server`), from `allowed_mcp_urls` only.
   * @default true
   */
  allow_mcp_connect?: boolean;
  /**
   * Let the agent add and remove its own triggers (`add_trigger`, `remove_trigger`).
   * @default true
   */
  allow_trigger_management?: boolean;
  /**
   * http(s) URLs of the MCP servers the agent may connect (exact match after normalising). An empty list
   * allows none, whatever the deploy source; connected servers never get the process's credentials.
   * @default []
   */
  allowed_mcp_urls?: string[];
  /**
   * Most tools the agent may create (per start). An integer >= 0.
   * @default 20
   */
  max_custom_tools?: number;
  /**
   * Most triggers the agent may have added at once. An integer >= 0.
   * @default 10
   */
  max_dynamic_triggers?: number;
  /**
   * Longest instructions, in characters, the agent may give itself. An integer >= 100.
   * @default 10000
   */
  max_instruction_length?: number;
}

/** The `open_mode` section with every default filled. */
export type OpenModeConfig = Resolved<OpenModeConfigInput>;

/** Open-mode settings; every field has a default. */
export const OpenModeConfigSchema: z.ZodType<OpenModeConfig, OpenModeConfigInput> = exactly(strictObject({
  allow_tool_creation: boolean().default(true),
  allow_mcp_connect: boolean().default(true),
  allow_trigger_management: boolean().default(true),
  allowed_mcp_urls: list(httpUrl(), "a list of http(s) URLs").default(() => []),
  max_custom_tools: integer({ min: 0 }).default(20),
  max_dynamic_triggers: integer({ min: 0 }).default(10),
  max_instruction_length: integer({ min: 100 }).default(10000),
}));
