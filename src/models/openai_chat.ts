/**
 * The Chat Completions client (`POST {base}/chat/completions`), used by the `openai-compatible` and
 * `ollama` providers and by any server that speaks the format (vLLM, LM Studio, Groq, OpenRouter, ...).
 *
 * @module
 */

import { parseAnswer, parseEventData, readJson, streamEvents, truncatedStream } from "./_answer.ts";
import { chatChunkSchema, chatCompletionSchema, chatMessages, chatTools } from "./_openai_chat_wire.ts";
import type { HttpClientOptions } from "./client_options.ts";
import { Endpoint } from "./_endpoint.ts";
import { ModelError } from "./errors.ts";
import type { ModelClient, ModelRequest, ModelTurn, ToolCall, Usage } from "./types.ts";

/** Options of {@linkcode OpenAiChatClient}. */
export type OpenAiChatClientOptions = HttpClientOptions;

/** The turn for a finish reason: "length" is a truncated answer; tool calls win over other reasons. */
function finish(turn: Omit<ModelTurn, "stopReason">, reason: string | null | undefined): ModelTurn {
  if (reason === "length") throw new ModelError("truncated", "the model answer hit its length limit");
  const stopReason = turn.toolCalls.length > 0
    ? "tool_calls"
    : reason === "stop" || !reason
    ? "stop"
    : "other";
  return { ...turn, stopReason };
}

/** A Chat Completions model client. */
export class OpenAiChatClient implements ModelClient {
  /** The provider name it reports. */
  readonly provider: string;
  /** The model it asks. */
  readonly model: string;
  #endpoint: Endpoint;

  /** A client of `options.model` at `options.baseUrl`. */
  constructor(options: OpenAiChatClientOptions) {
    this.provider = options.provider;
    this.model = options.model;
    this.#endpoint = new Endpoint(options, {
      path: "/chat/completions",
      headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
    });
  }

  /** Asks for one turn. */
  async complete(request: ModelRequest): Promise<ModelTurn> {
    const stream = request.stream === true;
    const body: Record<string, unknown> = { model: this.model, messages: chatMessages(request.messages) };
    if (request.tools.length > 0) body.tools = chatTools(request.tools);
    if (stream) Object.assign(body, { stream: true, stream_options: { include_usage: true } });
    const response = await this.#endpoint.post(body, request);
    return stream ? await this.#readStream(response, request) : this.#readJson(response, request);
  }

  async #readJson(response: Response, request: ModelRequest): Promise<ModelTurn> {
    const answer = parseAnswer(chatCompletionSchema, await readJson(response, request.signal));
    const choice = answer.choices[0];
    const toolCalls = (choice.message.tool_calls ?? []).map((call, index) => ({
      id: call.id || `call_${index}`,
      name: call.function.name,
      arguments: call.function.arguments ?? "",
    }));
    const usage = {
      input_tokens: answer.usage?.prompt_tokens ?? 0,
      output_tokens: answer.usage?.completion_tokens ?? 0,
    };
    return finish({ text: choice.message.content ?? "", toolCalls, usage }, choice.finish_reason);
  }

  async #readStream(response: Response, request: ModelRequest): Promise<ModelTurn> {
    let text = "";
    const calls: ToolCall[] = [];
    const usage: Usage = { input_tokens: 0, output_tokens: 0 };
    let reason: string | null | undefined;
    for await (const event of streamEvents(response, request.signal)) {
      if (event.data === "[DONE]") {
        return finish({ text, toolCalls: calls.filter((call) => call !== undefined), usage }, reason);
      }
      const chunk = parseAnswer(chatChunkSchema, parseEventData(event.data));
      if (chunk.error !== undefined) {
        throw new ModelError("http", "the model API reported an error in its stream", { detail: event.data });
      }
      if (chunk.usage) {
        usage.input_tokens = chunk.usage.prompt_tokens;
        usage.output_tokens = chunk.usage.completion_tokens;
      }
      for (const choice of chunk.choices ?? []) {
        if (choice.finish_reason) reason = choice.finish_reason;
        const delta = choice.delta;
        if (!delta) continue;
        if (delta.content) {
          text += delta.content;
          request.onText?.(delta.content);
        }
        for (const part of delta.tool_calls ?? []) {
          const call = calls[part.index] ??= { id: `call_${part.index}`, name: "", arguments: "" };
          if (part.id) call.id = part.id;
          if (part.function?.name) call.name += part.function.name;
          if (part.function?.arguments) call.arguments += part.function.arguments;
        }
      }
    }
    throw truncatedStream();
  }
}
