/**
 * HMAC-SHA256 in plain JavaScript over bytes already in a buffer, for the audit writer: the keyed inner
 * and outer states are computed once, and a MAC costs a few compressions with no calls into the runtime
 * and no allocation but the hex text (`node:crypto` makes two hash objects and two buffers per MAC, whose
 * calls and garbage cost a busy server more than the hashing). Checked against `node:crypto` in its
 * test; the audit verifier checks entries with WebCrypto.
 *
 * @module
 */

// deno-fmt-ignore
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
// deno-fmt-ignore
const IV = new Int32Array([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);
const BLOCK = 64;
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
const encoder = new TextEncoder();

/** SHA-256 compression of the 64 bytes of `bytes` at `offset` into `state`; `w` is scratch. */
function compress(state: Int32Array, w: Int32Array, bytes: Uint8Array, offset: number): void {
  for (let i = 0; i < 16; i++) {
    const j = offset + i * 4;
    w[i] = (bytes[j] << 24) | (bytes[j + 1] << 16) | (bytes[j + 2] << 8) | bytes[j + 3];
  }
  for (let i = 16; i < 64; i++) {
    const x = w[i - 15];
    const y = w[i - 2];
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
  }
  let a = state[0], b = state[1], c = state[2], d = state[3];
  let e = state[4], f = state[5], g = state[6], h = state[7];
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0] + a) | 0;
  state[1] = (state[1] + b) | 0;
  state[2] = (state[2] + c) | 0;
  state[3] = (state[3] + d) | 0;
  state[4] = (state[4] + e) | 0;
  state[5] = (state[5] + f) | 0;
  state[6] = (state[6] + g) | 0;
  state[7] = (state[7] + h) | 0;
}

/** HMAC-SHA256 under one key, over bytes in a caller's buffer. */
export class HmacBytes {
  #inner = new Int32Array(8);
  #outer = new Int32Array(8);
  #state = new Int32Array(8);
  #w = new Int32Array(64);
  #tail = new Uint8Array(2 * BLOCK);
  #digest = new Uint8Array(32);

  /** A MAC for `secret` (its UTF-8 bytes; keys over 64 bytes are hashed first, as HMAC says). */
  constructor(secret: string) {
    let key: Uint8Array = encoder.encode(secret);
    if (key.length > BLOCK) key = this.#sha256(key);
    const block = new Uint8Array(BLOCK);
    block.set(key);
    for (const [pad, state] of [[0x36, this.#inner], [0x5c, this.#outer]] as const) {
      state.set(IV);
      compress(state, this.#w, block.map((byte) => byte ^ pad), 0);
    }
  }

  /** The MAC of the `length` bytes of `bytes` from `offset`, as lower-case hex. */
  hex(bytes: Uint8Array, length: number, offset = 0): string {
    const state = this.#state;
    state.set(this.#inner);
    this.#finish(state, bytes, offset, length, BLOCK);
    const digest = this.#digest;
    for (let i = 0; i < 8; i++) {
      digest[i * 4] = state[i] >>> 24;
      digest[i * 4 + 1] = (state[i] >>> 16) & 0xff;
      digest[i * 4 + 2] = (state[i] >>> 8) & 0xff;
      digest[i * 4 + 3] = state[i] & 0xff;
    }
    state.set(this.#outer);
    this.#finish(state, digest, 0, 32, BLOCK);
    let out = "";
    for (let i = 0; i < 8; i++) {
      const word = state[i];
      out += HEX[word >>> 24] + HEX[(word >>> 16) & 0xff] + HEX[(word >>> 8) & 0xff] + HEX[word & 0xff];
    }
    return out;
  }

  /** Hashes `length` bytes from `start` into `state` after `before` bytes already hashed, and pads. */
  #finish(state: Int32Array, bytes: Uint8Array, start: number, length: number, before: number): void {
    const whole = length - (length % BLOCK);
    for (let at = 0; at < whole; at += BLOCK) compress(state, this.#w, bytes, start + at);
    // The rest, 0x80, zeros and the length in bits (big-endian) fill one or two blocks.
    const rest = length - whole;
    const end = rest + 9 <= BLOCK ? BLOCK : 2 * BLOCK;
    const t = this.#tail;
    t.fill(0);
    t.set(bytes.subarray(start + whole, start + length));
    t[rest] = 0x80;
    const bits = (before + length) * 8;
    const high = Math.floor(bits / 0x100000000);
    const low = bits >>> 0;
    t[end - 8] = high >>> 24;
    t[end - 7] = (high >>> 16) & 0xff;
    t[end - 6] = (high >>> 8) & 0xff;
    t[end - 5] = high & 0xff;
    t[end - 4] = low >>> 24;
    t[end - 3] = (low >>> 16) & 0xff;
    t[end - 2] = (low >>> 8) & 0xff;
    t[end - 1] = low & 0xff;
    compress(state, this.#w, t, 0);
    if (end === 2 * BLOCK) compress(state, this.#w, t, BLOCK);
  }

  /** Plain SHA-256 of `bytes` (for long keys). */
  #sha256(bytes: Uint8Array): Uint8Array {
    const state = new Int32Array(IV);
    this.#finish(state, bytes, 0, bytes.length, 0);
    const out = new Uint8Array(32);
    for (let i = 0; i < 32; i++) out[i] = (state[i >> 2] >>> (24 - (i & 3) * 8)) & 0xff;
    return out;
  }
}
