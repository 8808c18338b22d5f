/**
 * Reading a model API's 2xx answer: a JSON body or an SSE stream, with read failures mapped to
 * `ModelError` kinds ("aborted" when the caller's signal fired, "network" otherwise, "malformed" for JSON
 * that does not parse or does not match its schema).
 *
 * @module
 */

import type { z } from "zod";
import { ModelError } from "./errors.ts";
import { abortedError } from "./retry.ts";
import { readSse, type SseEvent } from "./sse.ts";

function readFailure(error: unknown, signal: AbortSignal | undefined): ModelError {
  if (error instanceof ModelError) return error;
  if (signal?.aborted) return abortedError(error);
  return new ModelError("network", "the model answer could not be read", { cause: error });
}

/** The JSON body of `response` (a body cut mid-JSON or not JSON at all is "malformed"). */
export async function readJson(response: Response, signal: AbortSignal | undefined): Promise<unknown> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw readFailure(error, signal);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ModelError("malformed", "the model answer is not valid JSON", { cause: error, detail: text });
  }
}

/** `value` checked against `schema` ("malformed" when it does not match). */
export function parseAnswer<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new ModelError("malformed", "the model answer is missing expected fields", {
      cause: result.error,
      detail: JSON.stringify(value)?.slice(0, 500),
    });
  }
  return result.data;
}

/** `data` of an SSE event parsed as JSON ("malformed" when it is not). */
export function parseEventData(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch (error) {
    throw new ModelError("malformed", "a streamed model event is not valid JSON", {
      cause: error,
      detail: data,
    });
  }
}

/** The SSE events of `response`, read errors mapped to "aborted" or "network"; the body is always released. */
export async function* streamEvents(
  response: Response,
  signal: AbortSignal | undefined,
): AsyncGenerator<SseEvent> {
  if (response.body === null) return;
  const events = readSse(response.body);
  try {
    while (true) {
      let next: IteratorResult<SseEvent>;
      try {
        next = await events.next();
      } catch (error) {
        throw readFailure(error, signal);
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await events.return(undefined);
  }
}

/** The error for a stream that ended before its terminal event. */
export function truncatedStream(): ModelError {
  return new ModelError("truncated", "the model stream ended before its final event");
}
