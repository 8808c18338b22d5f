/**
 * Reading JSON request bodies with a size limit (also for chunked bodies) and a time limit.
 *
 * @module
 */

import { ApiError } from "./errors.ts";

/** Largest accepted body: 1 MiB. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Longest time to receive a body. */
export const BODY_TIMEOUT_MS = 30_000;

/** Options for {@linkcode readJsonObject}. */
export interface ReadBodyOptions {
  /** @default {@linkcode MAX_BODY_BYTES} */
  limit?: number;
  /** @default {@linkcode BODY_TIMEOUT_MS} */
  timeoutMs?: number;
}

/**
 * Reads a body that must be empty or a JSON object. Resolves `undefined` for an empty body.
 * Throws 413 PAYLOAD_TOO_LARGE, 400 INVALID_JSON, or HTTP_ERROR 408 (too slow) / 400 (broken stream).
 */
export async function readJsonObject(
  request: Request,
  options: ReadBodyOptions = {},
): Promise<Record<string, unknown> | undefined> {
  const text = await readText(request, options.limit ?? MAX_BODY_BYTES, options.timeoutMs ?? BODY_TIMEOUT_MS);
  if (text.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError("INVALID_JSON", "The request body is not valid JSON.");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ApiError("INVALID_JSON", "The request body must be a JSON object.");
  }
  return value as Record<string, unknown>;
}

function tooLarge(limit: number): ApiError {
  return new ApiError("PAYLOAD_TOO_LARGE", `The request body is larger than ${limit} bytes.`);
}

async function readText(request: Request, limit: number, timeoutMs: number): Promise<string> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ApiError("HTTP_ERROR", "The request body was not received in time.", { status: 408 })),
      timeoutMs,
    );
  });
  try {
    while (true) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await Promise.race([reader.read(), timeout]);
      } catch (error) {
        if (error instanceof ApiError) throw error;
        throw new ApiError("HTTP_ERROR", "The request body could not be read.", { status: 400 });
      }
      if (chunk.done) break;
      size += chunk.value.byteLength;
      if (size > limit) throw tooLarge(limit);
      chunks.push(chunk.value);
    }
  } catch (error) {
    reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(concat(chunks, size));
  } catch {
    throw new ApiError("INVALID_JSON", "The request body is not valid UTF-8 JSON.");
  }
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
