/**
 * What the plan stage shares with mcpcast's other stages and users do not need (not a published entry
 * point): example synthesis from a bare schema, which evaluation uses for mock upstream answers.
 *
 * @module
 */

export { exampleValue } from "./examples/mod.ts";
