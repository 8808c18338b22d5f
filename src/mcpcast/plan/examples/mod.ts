/**
 * Example values for tool parameters: made from a schema (its `example`, `default`, enum, format or
 * pattern), kept within its bounds, and checked against it.
 *
 * @module
 */

export { exampleMismatch, makeExample } from "./examples.ts";
export { withinBounds } from "./example_bounds.ts";
export { toolExampleProblem } from "./example_check.ts";
// Evaluation (issue 19): mock answers synthesised from success response schemas.
export { exampleValue } from "./examples.ts";
