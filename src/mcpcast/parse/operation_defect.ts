/**
 * A defect inside one operation (a malformed parameter list, an unresolvable reference, ...): the
 * operation is marked unsupported with this message as its reason while the rest of the spec
 * survives. Never escapes `extractOperations`.
 *
 * @module
 */

import { type RefProblem, refProblemMessage } from "./refs.ts";
import { kindOf } from "../_spec_values.ts";

/** Why one operation cannot be mapped to a tool. */
export class OperationDefect extends Error {
  /** A defect with the reason recorded as the operation's `unsupportedBody`. */
  constructor(reason: string) {
    super(reason);
    this.name = "OperationDefect";
  }
}

/** "malformed <where>: expected <kind>, got <kind of value>". */
export function malformed(where: string, expected: string, value: unknown): OperationDefect {
  return new OperationDefect(`malformed ${where}: expected ${expected}, got ${kindOf(value)}`);
}

/** Throws the first reference problem, if any, as a defect. */
export function throwRefProblems(problems: readonly RefProblem[]): void {
  if (problems.length > 0) throw new OperationDefect(refProblemMessage(problems[0]));
}
