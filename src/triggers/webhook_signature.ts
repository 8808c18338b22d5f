/**
 * Checking webhook signatures: `X-Webhook-Signature: sha256=<hex HMAC-SHA256>` over the raw body, or,
 * with a tolerance, over `<timestamp>.<raw body>` where the timestamp (`X-Webhook-Timestamp`, Unix
 * seconds) must lie within the tolerance of the clock and each signature is accepted once (as Stripe
 * and Slack sign their webhooks, plus a replay memory).
 *
 * @module
 */

import { HmacSha256 } from "../_util/hmac_sha256.ts";

/** Header carrying `sha256=<hex HMAC-SHA256>` when a secret is set. */
export const WEBHOOK_SIGNATURE_HEADER = "x-webhook-signature";
/** Header carrying the Unix time in seconds a request was signed at, when a tolerance is set. */
export const WEBHOOK_TIMESTAMP_HEADER = "x-webhook-timestamp";
/** Most signatures remembered at once against replays (each until its timestamp leaves the window). */
export const WEBHOOK_REPLAY_MEMORY = 100_000;

/**
 * What a check found: `ok` (accepted; with a tolerance, the signature is now reserved), `invalid` (bad
 * or missing signature), `no_timestamp` (missing or malformed timestamp), `stale` (timestamp outside
 * the window), `replayed` (this signature was already accepted within the window), `busy` (the replay
 * memory is full of signatures still within the window).
 */
export type SignatureCheck = "ok" | "invalid" | "no_timestamp" | "stale" | "replayed" | "busy";

/** Options for {@linkcode WebhookSignature}. */
export interface WebhookSignatureOptions {
  /**
   * Seconds a signed timestamp may differ from the clock (either way); 0 signs the body alone, with no
   * timestamp and no replay memory. @default 0
   */
  toleranceSeconds?: number;
  /** Most signatures remembered at once. @default {@linkcode WEBHOOK_REPLAY_MEMORY} */
  memory?: number;
  /** The clock, in milliseconds since the epoch. @default Date.now */
  now?: () => number;
}

const TIMESTAMP = /^[0-9]{1,12}$/;
const ENCODER = new TextEncoder();

/**
 * Verifies webhook signatures for one secret. With a tolerance, an accepted signature is remembered
 * until its timestamp leaves the window; {@linkcode WebhookSignature.release} forgets it again when the
 * request was not accepted after all (so the client may retry it).
 *
 * @example
 * ```ts
 * import { WebhookSignature } from "./webhook_signature.ts";
 * const signature = new WebhookSignature("0123456789abcdef", { toleranceSeconds: 300 });
 * const body = new TextEncoder().encode("{}");
 * const headers = new Headers({ "x-webhook-timestamp": "1700000000", "x-webhook-signature": "sha256=00" });
 * console.log(signature.check(headers, body)); // "invalid" (or "stale": the clock is checked after the MAC)
 * ```
 */
export class WebhookSignature {
  /** Tolerance in seconds (0: no timestamp). */
  readonly toleranceSeconds: number;
  #signer: HmacSha256;
  #capacity: number;
  #now: () => number;
  /** Signature hex -> when it may be forgotten (ms); insertion order is roughly expiry order. */
  #seen = new Map<string, number>();
  #lastSweep = 0;

  /** A verifier for `secret`; throws `RangeError` for an empty secret, a bad tolerance or memory. */
  constructor(secret: string, options: WebhookSignatureOptions = {}) {
    const tolerance = options.toleranceSeconds ?? 0;
    const memory = options.memory ?? WEBHOOK_REPLAY_MEMORY;
    if (secret === "") throw new RangeError("secret must not be empty");
    if (!Number.isInteger(tolerance) || tolerance < 0) throw new RangeError("toleranceSeconds must be >= 0");
    if (!Number.isInteger(memory) || memory < 1) throw new RangeError("memory must be >= 1");
    this.toleranceSeconds = tolerance;
    this.#signer = new HmacSha256(secret);
    this.#capacity = memory;
    this.#now = options.now ?? Date.now;
  }

  /** Signatures remembered now. */
  get remembered(): number {
    return this.#seen.size;
  }

  /** Checks the request's signature (and timestamp); `ok` reserves the signature against replays. */
  check(headers: Headers, body: Uint8Array): SignatureCheck {
    const header = headers.get(WEBHOOK_SIGNATURE_HEADER);
    if (this.toleranceSeconds === 0) return this.#signer.verify(header, body) ? "ok" : "invalid";
    const timestamp = headers.get(WEBHOOK_TIMESTAMP_HEADER)?.trim();
    if (timestamp === undefined || !TIMESTAMP.test(timestamp)) return "no_timestamp";
    if (!this.#signer.verify(header, signedText(timestamp, body))) return "invalid";
    const now = this.#now();
    this.#forgetExpired(now);
    const expires = (Number(timestamp) + this.toleranceSeconds) * 1000;
    if (Math.abs(now - Number(timestamp) * 1000) > this.toleranceSeconds * 1000) return "stale";
    const key = header!.trim().slice(7).toLowerCase();
    if (this.#seen.has(key)) return "replayed";
    if (this.#seen.size >= this.#capacity) return "busy";
    this.#seen.set(key, expires);
    return "ok";
  }

  /** Forgets the signature of a request that was checked `ok` but not accepted (the client may retry). */
  release(headers: Headers): void {
    if (this.toleranceSeconds === 0) return;
    const header = headers.get(WEBHOOK_SIGNATURE_HEADER);
    if (header !== null) this.#seen.delete(header.trim().slice(7).toLowerCase());
  }

  /** Drops expired signatures from the front; when full, sweeps them all (at most once a second). */
  #forgetExpired(now: number): void {
    for (const [key, expires] of this.#seen) {
      if (expires >= now) break;
      this.#seen.delete(key);
    }
    if (this.#seen.size < this.#capacity || now - this.#lastSweep < 1000) return;
    this.#lastSweep = now;
    for (const [key, expires] of this.#seen) if (expires < now) this.#seen.delete(key);
  }
}

/** `<timestamp>.<body>` as bytes: what a timestamped signature covers. */
function signedText(timestamp: string, body: Uint8Array): Uint8Array {
  const prefix = ENCODER.encode(`${timestamp}.`);
  const text = new Uint8Array(prefix.byteLength + body.byteLength);
  text.set(prefix);
  text.set(body, prefix.byteLength);
  return text;
}
