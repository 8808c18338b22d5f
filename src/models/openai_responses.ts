/**
 * The OpenAI Responses API client (`POST {base}/responses`, `store: false`), used by the `openai`
 * provider. Streaming reads `response.output_text.delta` events for `onText` and takes the turn from the
 * final `response.completed` event.
 *
 * @module
 */

import { parseAnswer, parseEventData, readJson, streamEvents, truncatedStream } from "./_answer.ts";
import {
  functionCallItemSchema,
  messageItemSchema,
  responseEventSchema,
  responseSchema,
  responsesInput,
  responsesInstructions,
  responsesTools,
} from "./_openai_responses_wire.ts";
import type { HttpClientOptions } from "./client_options.ts";
import { Endpoint } from "./_endpoint.ts";
import { ModelError } from "./errors.ts";
import type { ModelClient, ModelRequest, ModelTurn, ToolCall } from "./types.ts";

/** Options of {@linkcode OpenAiResponsesClient}. */
export type OpenAiResponsesClientOptions = HttpClientOptions;

/** The turn of a Responses answer (`incomplete` is truncated, `failed` an error). */
function turnOf(value: unknown): ModelTurn {
  const answer = parseAnswer(responseSchema, value);
  if (answer.status === "incomplete") {
    throw new ModelError("truncated", "the model answer is incomplete", {
      detail: answer.incomplete_details?.reason ?? undefined,
    });
  }
  if (answer.status === "failed") throw new ModelError("http", "the model reported a failed response");
  let text = "";
  const toolCalls: ToolCall[] = [];
  for (const item of answer.output) {
    if (item.type === "message") {
      for (const part of parseAnswer(messageItemSchema, item).content) {
        if (part.type === "output_text" && part.text) text += part.text;
      }
    } else if (item.type === "function_call") {
      const call = parseAnswer(functionCallItemSchema, item);
      toolCalls.push({ id: call.call_id, name: call.name, arguments: call.arguments });
    }
  }
  return {
    text,
    toolCalls,
    usage: { input_tokens: answer.usage?.input_tokens ?? 0, output_tokens: answer.usage?.output_tokens ?? 0 },
    stopReason: toolCalls.length > 0
      ? "tool_calls"
      : answer.status && answer.status !== "completed"
      ? "other"
      : "stop",
  };
}

/** A Responses API model client. */
export class OpenAiResponsesClient implements ModelClient {
  /** The provider name it reports. */
  readonly provider: string;
  /** The model it asks. */
  readonly model: string;
  #endpoint: Endpoint;

  /** A client of `options.model` at `options.baseUrl`. */
  constructor(options: OpenAiResponsesClientOptions) {
    this.provider = options.provider;
    this.model = options.model;
    this.#endpoint = new Endpoint(options, {
      path: "/responses",
      headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
    });
  }

  /** Asks for one turn. */
  async complete(request: ModelRequest): Promise<ModelTurn> {
    const stream = request.stream === true;
    const body: Record<string, unknown> = {
      model: this.model,
      input: responsesInput(request.messages),
      store: false,
    };
    const instructions = responsesInstructions(request.messages);
    if (instructions !== undefined) body.instructions = instructions;
    if (request.tools.length > 0) body.tools = responsesTools(request.tools);
    if (stream) body.stream = true;
    const response = await this.#endpoint.post(body, request);
    if (!stream) return turnOf(await readJson(response, request.signal));
    for await (const event of streamEvents(response, request.signal)) {
      const data = parseAnswer(responseEventSchema, parseEventData(event.data));
      switch (data.type) {
        case "response.output_text.delta":
          if (data.delta) request.onText?.(data.delta);
          break;
        case "response.completed":
        case "response.incomplete":
        case "response.failed":
          return turnOf(data.response);
        case "error":
          throw new ModelError("http", "the model API reported an error in its stream", {
            detail: event.data,
          });
      }
    }
    throw truncatedStream();
  }
}
