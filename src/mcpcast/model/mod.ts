/**
 * What mcpcast's model-driven stages share (curation, evaluation, the tool-surface report): the
 * completer, JSON replies and token estimates.
 *
 * @module
 */

export { type Completer, modelCompleter, type ModelCompleterOptions } from "./completer.ts";
export { jsonObjectIn } from "./json_reply.ts";
export { CHARS_PER_TOKEN, estimateTokens } from "./tokens.ts";
