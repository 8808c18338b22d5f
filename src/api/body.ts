/**
 * Reading JSON request bodies with a size limit (also for chunked bodies) and a time limit.
 *
 * @module
 */

import { readLimitedBody } from "../_util/read_body.ts";
import { ApiError } from "./errors.ts";
import { MAX_JSON_DEPTH, nestedDeeperThan } from "../_util/json_depth.ts";

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
 * Throws 413 PAYLOAD_TOO_LARGE, 400 INVALID_JSON, 422 INVALID_FIELD (nested deeper than
 * {@linkcode MAX_JSON_DEPTH} levels), or HTTP_ERROR 408 (too slow) / 400 (broken stream).
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
  if (nestedDeeperThan(value, MAX_JSON_DEPTH)) {
    throw new ApiError(
      "INVALID_FIELD",
      `The request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep.`,
    );
  }
  return value as Record<string, unknown>;
}

const BODY_ERRORS = {
  400: () => new ApiError("HTTP_ERROR", "The request body could not be read.", { status: 400 }),
  408: () => new ApiError("HTTP_ERROR", "The request body was not received in time.", { status: 408 }),
} as const;

async function readText(request: Request, limit: number, timeoutMs: number): Promise<string> {
  const body = await readLimitedBody(request, limit, timeoutMs);
  if (body === 413) {
    throw new ApiError("PAYLOAD_TOO_LARGE", `The request body is larger than ${limit} bytes.`);
  }
  if (typeof body === "number") throw BODY_ERRORS[body]();
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    throw new ApiError("INVALID_JSON", "The request body is not valid UTF-8 JSON.");
  }
}
