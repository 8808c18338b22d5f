/**
 * Test helper: a parsed config from partial input.
 *
 * @module
 */

import { parseProcessConfig, type ProcessConfig, type ProcessConfigInput } from "./config/mod.ts";

/** Parses `input` or throws with the issues. */
export function testConfig(input: ProcessConfigInput | Record<string, unknown> = {}): ProcessConfig {
  const parsed = parseProcessConfig(input);
  if (!parsed.ok) throw new Error(`bad test config: ${JSON.stringify(parsed.issues)}`);
  return parsed.config;
}
