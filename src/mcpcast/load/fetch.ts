/**
 * Downloading a spec with a wall-clock limit and a byte cap checked on `Content-Length` and on the
 * bytes actually streamed. Credentials in the URL are sent (Basic auth, query) but never shown.
 *
 * @module
 */

import { permissionFailure } from "../../_util/permission_hint.ts";
import { readStreamLimited } from "../../_util/read_body.ts";
import { McpcastError } from "../errors.ts";
import { decodeSpecBytes, type SpecText } from "./decode.ts";
import { scrubText } from "../_scrub.ts";
import { reduceUrls, type SpecRequestTarget, specRequestTarget } from "../_spec_url.ts";

/** Options of {@link fetchSpecText}. */
export interface FetchSpecOptions {
  /** Largest body accepted, in bytes. */
  maxBytes: number;
  /** Wall-clock limit of the whole download, in seconds. */
  fetchSeconds: number;
  /** The fetch to use. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Cancels the download; its reason is thrown as is. */
  signal?: AbortSignal;
}

/** A downloaded spec. */
export interface FetchedSpec {
  /** The body, decoded by `decodeSpecBytes` (UTF-8, invalid sequences replaced). */
  text: SpecText;
  /** The public form of the URL. */
  publicUrl: string;
  /** Bytes received. */
  bytes: number;
}

/**
 * Downloads the spec at `url` (redirects followed). Throws {@link McpcastError} naming the public URL
 * on an HTTP error status, a network error, a body over `maxBytes` (MCPCAST_MAX_SPEC_BYTES) or a
 * download slower than `fetchSeconds` (MCPCAST_FETCH_SECONDS); rethrows `signal.reason` when cancelled.
 */
export async function fetchSpecText(url: string, options: FetchSpecOptions): Promise<FetchedSpec> {
  let target: SpecRequestTarget;
  try {
    target = specRequestTarget(url);
  } catch {
    throw new McpcastError("spec URL is not a valid URL");
  }
  options.signal?.throwIfAborted();
  const timeout = AbortSignal.timeout(options.fetchSeconds * 1000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const failed = (error: unknown): Error => {
    if (options.signal?.aborted) return options.signal.reason;
    if (timeout.aborted) {
      return new McpcastError(
        `downloading spec ${target.publicUrl} took longer than ${options.fetchSeconds} s (MCPCAST_FETCH_SECONDS)`,
      );
    }
    if (error instanceof McpcastError) return error;
    const denied = permissionFailure(error, {
      name: "net",
      host: deniedHost(error) ?? new URL(target.url).host,
    });
    if (denied !== undefined) {
      return new McpcastError(`could not download spec ${target.publicUrl}: ${denied}`);
    }
    const reason = error instanceof Error ? error.message : String(error);
    return new McpcastError(
      `could not download spec ${target.publicUrl}: ${reduceUrls(scrubText(reason)).slice(0, 300)}`,
    );
  };
  let stopWaiting = () => {};
  const aborted = new Promise<never>((_resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    stopWaiting = () => signal.removeEventListener("abort", onAbort);
  });
  aborted.catch(() => undefined);
  try {
    const headers = new Headers({ accept: "application/json, application/yaml, text/yaml, */*" });
    if (target.authorization) headers.set("authorization", target.authorization);
    const fetchFn = options.fetch ?? globalThis.fetch;
    const response = await Promise.race([
      fetchFn(target.url, { headers, signal, redirect: "follow" }),
      aborted,
    ]);
    const { text, bytes } = await readBody(response, target.publicUrl, options.maxBytes, aborted);
    return { text, publicUrl: target.publicUrl, bytes };
  } catch (error) {
    throw failed(error);
  } finally {
    stopWaiting();
  }
}

async function readBody(
  response: Response,
  publicUrl: string,
  maxBytes: number,
  aborted: Promise<never>,
): Promise<{ text: SpecText; bytes: number }> {
  const tooLarge = () =>
    new McpcastError(`spec ${publicUrl} is larger than ${maxBytes} bytes (MCPCAST_MAX_SPEC_BYTES)`);
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new McpcastError(`could not download spec ${publicUrl}: HTTP ${response.status}`);
  }
  const declared = response.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return { text: { text: "" }, bytes: 0 };
  const reader = response.body.getReader();
  let bytes: Uint8Array | 413;
  try {
    bytes = await Promise.race([readStreamLimited(reader, maxBytes), aborted]);
  } catch (error) {
    reader.cancel().catch(() => undefined);
    throw error;
  }
  if (bytes === 413) throw tooLarge();
  return { text: decodeSpecBytes(bytes), bytes: bytes.length };
}

/** The host Deno names in a refused connection (`Requires net access to "h:443"`): a redirect may lead there. */
function deniedHost(error: unknown): string | undefined {
  const named = error instanceof Error ? /access to "([^"]+)"/.exec(error.message)?.[1] : undefined;
  return named?.replace(/:(443|80)$/, "");
}
