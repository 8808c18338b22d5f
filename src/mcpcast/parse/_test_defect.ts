/**
 * A helper for the parse-stage tests that expect an operation to be refused.
 *
 * @module
 */

import assert from "node:assert/strict";
import { OperationDefect } from "./operation_defect.ts";

/** The message of the {@linkcode OperationDefect} `fn` throws; fails the test when it throws none. */
export function defectOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof OperationDefect, String(error));
    return error.message;
  }
  assert.fail("expected a defect");
}
