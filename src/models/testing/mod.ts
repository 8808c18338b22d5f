/**
 * Testing helpers of the model layer: a local model server speaking Chat Completions
 * (`POST /v1/chat/completions`), the OpenAI Responses API (`POST /v1/responses`) and the Anthropic Messages
 * API (`POST /v1/messages`), streamed and not, with scripted replies (texts, tool calls, error statuses
 * with headers, answers cut before their end) and the requests it received read back into our shapes.
 *
 * By default it answers as the **echo model**, for people trying Agentry without a model key:
 * - after tool results (tool results following the last user message) it replies with a text
 *   summarising them: `Tool results:` then `- <tool name>: <first 200 characters>` per result;
 * - when tools are offered and the last user message has a line `call <tool_name> <json args>`
 *   (e.g. `call get_weather {"city": "Paris"}`), it asks for that tool call (one per such line, so
 *   several lines give parallel calls);
 * - otherwise it replies `Echo: <first 200 characters of the last user message>`.
 *
 * Usage is about one token per four characters. Point a provider at it with
 * `OPENAI_BASE_URL=<url>` (any `OPENAI_API_KEY`), `OPENAI_COMPATIBLE_BASE_URL=<url>`, or
 * `ANTHROPIC_BASE_URL=<url without /v1>` (any `ANTHROPIC_API_KEY`).
 *
 * @example
 * ```ts
 * import { ProviderRegistry } from "@agentry/agentry/models";
 * import { startModelServer } from "@agentry/agentry/models/testing";
 *
 * await using server = startModelServer();
 * const client = new ProviderRegistry().resolve("openai-compatible:echo", {
 *   env: (name) => name === "OPENAI_COMPATIBLE_BASE_URL" ? server.url : undefined,
 * });
 * const turn = await client.complete({ messages: [{ role: "user", content: "hello" }], tools: [] });
 * console.log(turn.text); // "Echo: hello"
 * ```
 *
 * @module
 */

export {
  type ModelServer,
  type ModelServerOptions,
  type RecordedRequest,
  type ScriptedReply,
  startModelServer,
} from "./model_server.ts";
export { echoReply } from "./echo_reply.ts";
