/**
 * Test helpers for config parse results (used by the `_test.ts` files of this folder).
 *
 * @module
 */

import assert from "node:assert/strict";
import type { ConfigIssue, ConfigParseResult } from "./issues.ts";

/** The parsed value, failing the test when parsing failed. */
export function expectOk<T>(result: ConfigParseResult<T>): T {
  if (!result.ok) assert.fail(`expected a valid config, got issues: ${JSON.stringify(result.issues)}`);
  return result.config;
}

/** The issues, failing the test when parsing succeeded. */
export function expectIssues(result: ConfigParseResult<unknown>): ConfigIssue[] {
  if (result.ok) assert.fail("expected issues, got a valid config");
  return result.issues;
}

/** The one issue for `field`, failing the test when there is none. */
export function issueAt(result: ConfigParseResult<unknown>, field: string): ConfigIssue {
  const issues = expectIssues(result);
  const found = issues.find((issue) => issue.field === field);
  if (found === undefined) assert.fail(`no issue at ${field}; issues: ${JSON.stringify(issues)}`);
  return found;
}
