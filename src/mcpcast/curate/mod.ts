/**
 * The curation stage: a model designs a small, agent-oriented tool surface for a parsed spec, under a
 * budget and rules code enforces (violations fed back, no silent fallback), and the safety profile is
 * applied to what it proposes.
 *
 * @module
 */

export { curate } from "./curate.ts";
export type { CurateOptions, CurationProgress, CurationResult } from "./options.ts";
export { MAX_PROMPT_CHARS } from "./prompts.ts";
