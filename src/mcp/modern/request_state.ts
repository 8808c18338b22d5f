/**
 * The signed `requestState` of a 2026-07-28 multi-round-trip request. It carries the answers of
 * earlier rounds from one round to the next through the client, so it is HMAC-signed (the SDK's
 * `createRequestStateCodec`), it expires, and it is bound to the request it was minted for: the
 * method, the tool or prompt name (or resource URI), a hash of the arguments and, when known, the
 * caller. A state that fails any of these is refused with the error the SDK's own seam answers:
 * JSON-RPC `-32602` "Invalid or expired requestState", `data.reason: "invalid_request_state"`.
 *
 * The state is signed, not encrypted: a client can read it (it holds its own answers and hashes).
 *
 * @module
 */

import {
  createRequestStateCodec,
  ProtocolError,
  ProtocolErrorCode,
  type RequestStateCodec,
} from "@modelcontextprotocol/server";
import { canonicalJson } from "../audit/canonical_json.ts";

/** The shortest secret accepted, in bytes (a string counts its UTF-8 bytes). */
export const MIN_SECRET_BYTES = 32;

/** Seconds a state stays valid when the options give no `ttlSeconds`. */
export const DEFAULT_STATE_TTL_SECONDS = 600;

/** The request a state is bound to. */
export interface RequestStateBinding {
  /** The request method: `tools/call`, `prompts/get` or `resources/read`. */
  method: string;
  /** The tool or prompt name, or the resource URI. */
  name: string;
  /** The request's arguments; only their hash is bound (arguments in another order hash the same). */
  args?: unknown;
  /** Who asked (for example the credential the request carried); only its hash is bound. */
  subject?: string;
}

/** What a state carries from one round to the next. */
export interface RoundState {
  /** The answers received so far, by input key. */
  answers: Record<string, unknown>;
  /** How many rounds have ended `input_required` so far. */
  round: number;
}

/** Options for {@linkcode RequestStates}. */
export interface RequestStatesOptions {
  /** Seconds a minted state stays valid. @default 600 */
  ttlSeconds?: number;
}

interface Sealed {
  m: string;
  n: string;
  h: string;
  s: string | null;
  a: Record<string, unknown>;
  r: number;
}

/** The error a refused state answers with (the SDK seam's frozen wording). */
export function invalidRequestState(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid or expired requestState", {
    reason: "invalid_request_state",
  });
}

/** `secret` as bytes; throws a TypeError naming `owner` when it is not a string or bytes of 32+ bytes. */
export function secretBytes(secret: unknown, owner: string): Uint8Array {
  const bytes = typeof secret === "string"
    ? new TextEncoder().encode(secret)
    : secret instanceof Uint8Array
    ? Uint8Array.from(secret)
    : undefined;
  if (!bytes) throw new TypeError(`${owner}: requestStateSecret must be a string or a Uint8Array`);
  if (bytes.byteLength < MIN_SECRET_BYTES) {
    throw new TypeError(
      `${owner}: requestStateSecret must be at least ${MIN_SECRET_BYTES} bytes (got ${bytes.byteLength})`,
    );
  }
  return bytes;
}

async function digest(text: string): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return btoa(String.fromCharCode(...hash)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

async function bound(binding: RequestStateBinding): Promise<Pick<Sealed, "m" | "n" | "h" | "s">> {
  return {
    m: binding.method,
    n: binding.name,
    h: await digest(canonicalJson(binding.args ?? {})),
    s: binding.subject === undefined ? null : await digest(binding.subject),
  };
}

function isSealed(value: unknown): value is Sealed {
  const sealed = value as Partial<Sealed> | null;
  return typeof sealed === "object" && sealed !== null && typeof sealed.m === "string" &&
    typeof sealed.n === "string" && typeof sealed.h === "string" &&
    (sealed.s === null || typeof sealed.s === "string") && typeof sealed.a === "object" &&
    sealed.a !== null && !Array.isArray(sealed.a) && Number.isInteger(sealed.r);
}

/**
 * Seals and opens request states with one secret (every instance that may see a retried request
 * must hold the same secret).
 *
 * @example
 * ```ts
 * import { RequestStates } from "./request_state.ts";
 * const states = new RequestStates("a secret of at least thirty-two bytes!");
 * const binding = { method: "tools/call", name: "deploy", args: { env: "prod" } };
 * const token = await states.seal(binding, { answers: { e1: { action: "accept" } }, round: 1 });
 * const state = await states.open(token, binding); // the answers and the round, or a -32602 error
 * ```
 */
export class RequestStates {
  #codec: RequestStateCodec<Sealed>;

  /** States signed with `secret` (32 bytes or more). */
  constructor(secret: string | Uint8Array, options: RequestStatesOptions = {}) {
    const ttlSeconds = options.ttlSeconds ?? DEFAULT_STATE_TTL_SECONDS;
    if (!(Number.isFinite(ttlSeconds) && ttlSeconds > 0)) {
      throw new TypeError("request state: ttlSeconds must be a positive number");
    }
    this.#codec = createRequestStateCodec<Sealed>({ key: secretBytes(secret, "request state"), ttlSeconds });
  }

  /** The wire string carrying `state`, bound to `binding`. */
  async seal(binding: RequestStateBinding, state: RoundState): Promise<string> {
    return await this.#codec.mint({ ...await bound(binding), a: state.answers, r: state.round });
  }

  /**
   * The state `token` carries, after checking its signature, its expiry and that it was minted for
   * `binding`; otherwise throws {@linkcode invalidRequestState}.
   */
  async open(token: unknown, binding: RequestStateBinding): Promise<RoundState> {
    if (typeof token !== "string") throw invalidRequestState();
    let sealed: unknown;
    try {
      // The codec is created without a `bind` callback, so verify never reads its context.
      sealed = await this.#codec.verify(token, undefined as never);
    } catch {
      throw invalidRequestState();
    }
    if (!isSealed(sealed)) throw invalidRequestState();
    const expected = await bound(binding);
    if (
      sealed.m !== expected.m || sealed.n !== expected.n || sealed.h !== expected.h || sealed.s !== expected.s
    ) {
      throw invalidRequestState();
    }
    return { answers: sealed.a, round: sealed.r };
  }
}
