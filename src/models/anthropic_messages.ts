/**
 * The Anthropic Messages API client (`POST {base}/v1/messages`, `anthropic-version: 2023-06-01`), used
 * by the `anthropic` provider. `max_tokens` (required by the API) defaults to 4096.
 *
 * @module
 */

import { parseAnswer, parseEventData, readJson, streamEvents, truncatedStream } from "./_answer.ts";
import {
  anthropicMessages,
  anthropicSystem,
  anthropicTools,
  messageEventSchema,
  messageSchema,
} from "./_anthropic_wire.ts";
import type { HttpClientOptions } from "./client_options.ts";
import { Endpoint } from "./_endpoint.ts";
import { ModelError } from "./errors.ts";
import type { ModelClient, ModelRequest, ModelTurn, ToolCall, Usage } from "./types.ts";

/** Options of {@linkcode AnthropicMessagesClient}. */
export interface AnthropicMessagesClientOptions extends HttpClientOptions {
  /** The answer's token limit (`max_tokens`). @default 4096 */
  maxTokens?: number;
}

/** The `anthropic-version` header sent. */
export const ANTHROPIC_VERSION = "2023-06-01";

function finish(turn: Omit<ModelTurn, "stopReason">, reason: string | null | undefined): ModelTurn {
  if (reason === "max_tokens") throw new ModelError("truncated", "the model answer hit max_tokens");
  const stopReason = turn.toolCalls.length > 0 || reason === "tool_use"
    ? "tool_calls"
    : reason === "end_turn" || reason === "stop_sequence" || !reason
    ? "stop"
    : "other";
  return { ...turn, stopReason };
}

/** A Messages API model client. */
export class AnthropicMessagesClient implements ModelClient {
  /** The provider name it reports. */
  readonly provider: string;
  /** The model it asks. */
  readonly model: string;
  #endpoint: Endpoint;
  #maxTokens: number;

  /** A client of `options.model` at `options.baseUrl` (which has no `/v1`: the client adds it). */
  constructor(options: AnthropicMessagesClientOptions) {
    this.provider = options.provider;
    this.model = options.model;
    this.#endpoint = new Endpoint(options, {
      path: "/v1/messages",
      headers: {
        "anthropic-version": ANTHROPIC_VERSION,
        ...(options.apiKey ? { "x-api-key": options.apiKey } : {}),
      },
    });
    this.#maxTokens = options.maxTokens ?? 4096;
  }

  /** Asks for one turn. */
  async complete(request: ModelRequest): Promise<ModelTurn> {
    const stream = request.stream === true;
    const body: Record<string, unknown> = {
      model: this.model,
      max_tokens: this.#maxTokens,
      messages: anthropicMessages(request.messages),
    };
    const system = anthropicSystem(request.messages);
    if (system !== undefined) body.system = system;
    if (request.tools.length > 0) body.tools = anthropicTools(request.tools);
    if (stream) body.stream = true;
    const response = await this.#endpoint.post(body, request);
    return stream ? await this.#readStream(response, request) : this.#readJson(response, request);
  }

  async #readJson(response: Response, request: ModelRequest): Promise<ModelTurn> {
    const answer = parseAnswer(messageSchema, await readJson(response, request.signal));
    let text = "";
    const toolCalls: ToolCall[] = [];
    for (const block of answer.content) {
      if (block.type === "text") text += block.text ?? "";
      else if (block.type === "tool_use") {
        if (!block.id || !block.name) {
          throw new ModelError("malformed", "a tool_use block lacks its id or name");
        }
        toolCalls.push({ id: block.id, name: block.name, arguments: JSON.stringify(block.input ?? {}) });
      }
    }
    const usage = {
      input_tokens: answer.usage?.input_tokens ?? 0,
      output_tokens: answer.usage?.output_tokens ?? 0,
    };
    return finish({ text, toolCalls, usage }, answer.stop_reason);
  }

  async #readStream(response: Response, request: ModelRequest): Promise<ModelTurn> {
    let text = "";
    const blocks: Array<ToolCall | undefined> = [];
    const usage: Usage = { input_tokens: 0, output_tokens: 0 };
    let reason: string | null | undefined;
    for await (const event of streamEvents(response, request.signal)) {
      const data = parseAnswer(messageEventSchema, parseEventData(event.data));
      switch (data.type) {
        case "message_start":
          usage.input_tokens = data.message?.usage?.input_tokens ?? 0;
          usage.output_tokens = data.message?.usage?.output_tokens ?? 0;
          break;
        case "content_block_start": {
          const block = data.content_block;
          if (block?.type !== "tool_use") break;
          if (!block.id || !block.name || data.index == null) {
            throw new ModelError("malformed", "a streamed tool_use block lacks its id, name or index");
          }
          blocks[data.index] = { id: block.id, name: block.name, arguments: "" };
          break;
        }
        case "content_block_delta":
          if (data.delta?.type === "text_delta" && data.delta.text) {
            text += data.delta.text;
            request.onText?.(data.delta.text);
          } else if (data.delta?.type === "input_json_delta" && data.index != null) {
            const call = blocks[data.index];
            if (call) call.arguments += data.delta.partial_json ?? "";
          }
          break;
        case "message_delta":
          reason = data.delta?.stop_reason ?? reason;
          if (data.usage?.output_tokens != null) usage.output_tokens = data.usage.output_tokens;
          if (data.usage?.input_tokens != null) usage.input_tokens = data.usage.input_tokens;
          break;
        case "message_stop": {
          const toolCalls = blocks.filter((call) => call !== undefined)
            .map((call) => ({ ...call, arguments: call.arguments === "" ? "{}" : call.arguments }));
          return finish({ text, toolCalls, usage }, reason);
        }
        case "error":
          throw new ModelError("http", "the model API reported an error in its stream", {
            detail: event.data,
          });
      }
    }
    throw truncatedStream();
  }
}
