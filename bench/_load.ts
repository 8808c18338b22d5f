/**
 * Closed-loop HTTP/1.1 load: `connections` workers, each sending one request at a time on its own
 * keep-alive connection until the deadline. Two generators: raw `Deno.connect` (hand-written requests,
 * minimal response parsing: `content-length` or `transfer-encoding: chunked` answers) and `fetch` (one
 * pooled `Deno.HttpClient`).
 *
 * @module
 */

/** Which client drives the load. */
export type Generator = "raw" | "fetch";

/**
 * What to request. `body(seq)` builds a fresh JSON body per request (seq is unique within a run); a string
 * body is sent as is every time (the raw client then encodes the whole request once).
 */
export interface LoadTarget {
  /** Base URL, e.g. `http://127.0.0.1:1234`. */
  baseUrl: string;
  /** Method. */
  method: "GET" | "POST";
  /** Path and query. */
  path: string;
  /** Extra request headers (lowercase names). */
  headers: Record<string, string>;
  /** Body builder for POST, or one fixed body. */
  body?: string | ((seq: number) => string);
  /** Status every answer must have; others count as errors. */
  status: number;
  /**
   * Extra headers per connection: worker `i` adds `connectionHeaders[i % length]` (e.g. one MCP session id
   * per connection). @default none
   */
  connectionHeaders?: ReadonlyArray<Record<string, string>>;
  /**
   * Text every answer's body must contain (checked on the raw bytes, chunk framing included); answers with
   * the expected status but without it count as errors under the status key `"body"`. @default no check
   */
  bodyIncludes?: string;
}

/** Options for {@linkcode runLoad}. */
export interface LoadOptions {
  /** Client. */
  generator: Generator;
  /** Concurrent connections (= requests in flight). */
  connections: number;
  /** How long to send, in milliseconds. */
  durationMs: number;
}

/** Figures of one run. */
export interface LoadResult {
  /** Answers received with the expected status. */
  requests: number;
  /** Answers with another status. */
  errors: number;
  /** Count of each other status among the errors (e.g. `{"503": 12}`). */
  statuses: Record<string, number>;
  /** Wall time from first send to last answer. */
  seconds: number;
  /** Requests per second. */
  rps: number;
  /** Median latency (ms). */
  p50Ms: number;
  /** 99th percentile latency (ms). */
  p99Ms: number;
}

/** Sends requests for `durationMs` and measures throughput and latency. */
export async function runLoad(target: LoadTarget, options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const statuses: Record<string, number> = {};
  let seq = 0;
  const record = (ms: number, status: number | "body") => {
    if (status === target.status) latencies.push(ms);
    else {
      errors++;
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  const extra = (i: number) =>
    target.connectionHeaders?.length ? target.connectionHeaders[i % target.connectionHeaders.length] : {};
  const wanted = target.bodyIncludes;
  const started = performance.now();
  const deadline = started + options.durationMs;
  if (options.generator === "raw") {
    const url = new URL(target.baseUrl);
    const workers = Array.from({ length: options.connections }, async (_, i) => {
      const conn = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
      conn.setNoDelay(true);
      try {
        const own = { ...target, headers: { ...target.headers, ...extra(i) } };
        await rawLoop(conn, own, url.host, deadline, () => seq++, record);
      } finally {
        conn.close();
      }
    });
    await Promise.all(workers);
  } else {
    using client = Deno.createHttpClient({ poolMaxIdlePerHost: options.connections });
    const url = new URL(target.path, target.baseUrl).href;
    const common = { ...target.headers, ...(target.body ? { "content-type": "application/json" } : {}) };
    await Promise.all(Array.from({ length: options.connections }, async (_, i) => {
      const headers = { ...common, ...extra(i) };
      while (performance.now() < deadline) {
        const body = typeof target.body === "function" ? target.body(seq++) : target.body;
        const t0 = performance.now();
        const answer = await fetch(url, { method: target.method, headers, body, client });
        const text = wanted === undefined ? (await answer.arrayBuffer(), "") : await answer.text();
        const ok = answer.status !== target.status || wanted === undefined || text.includes(wanted);
        record(performance.now() - t0, ok ? answer.status : "body");
      }
    }));
  }
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    statuses,
    seconds,
    rps: latencies.length / seconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
  };
}

/** The q-quantile of sorted values (nearest rank); NaN when empty. */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i;
const CHUNKED = /\r\ntransfer-encoding:[ \t]*chunked/i;

async function rawLoop(
  conn: Deno.TcpConn,
  target: LoadTarget,
  host: string,
  deadline: number,
  nextSeq: () => number,
  record: (ms: number, status: number | "body") => void,
): Promise<void> {
  const fixedHead = `${target.method} ${target.path} HTTP/1.1\r\nhost: ${host}\r\n` +
    Object.entries(target.headers).map(([k, v]) => `${k}: ${v}\r\n`).join("");
  const build = (text: string) => {
    const body = encoder.encode(text);
    const head = encoder.encode(
      `${fixedHead}content-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`,
    );
    const request = new Uint8Array(head.length + body.length);
    request.set(head);
    request.set(body, head.length);
    return request;
  };
  const makeBody = target.body;
  const fixed = makeBody === undefined
    ? encoder.encode(fixedHead + "\r\n")
    : typeof makeBody === "string"
    ? build(makeBody)
    : undefined;
  const wanted = target.bodyIncludes === undefined ? undefined : encoder.encode(target.bodyIncludes);
  let buf = new Uint8Array(64 * 1024);
  while (performance.now() < deadline) {
    const request = fixed ?? build((makeBody as (seq: number) => string)(nextSeq()));
    const t0 = performance.now();
    for (let sent = 0; sent < request.length;) sent += await conn.write(request.subarray(sent));
    // Read one whole answer: headers, then content-length bytes or chunks up to the last one (no
    // pipelining, so nothing follows).
    let end = 0;
    let headEnd = -1;
    let total = Infinity;
    let chunks: ChunkCursor | undefined;
    while (end < total) {
      if (end === buf.length) {
        const bigger = new Uint8Array(buf.length * 2);
        bigger.set(buf);
        buf = bigger;
      }
      const n = await conn.read(buf.subarray(end));
      if (n === null) throw new Error("the server closed the connection");
      end += n;
      if (headEnd < 0) {
        headEnd = indexOfHeadEnd(buf, end);
        if (headEnd < 0) continue;
        const head = decoder.decode(buf.subarray(0, headEnd));
        const length = CONTENT_LENGTH.exec(head);
        if (length) total = headEnd + 4 + Number(length[1]);
        else if (CHUNKED.test(head)) chunks = { at: headEnd + 4 };
        else throw new Error(`answer without content-length or chunks: ${head.split("\r\n")[0]}`);
      }
      if (chunks) total = chunkedEnd(buf, end, chunks);
    }
    const status = (buf[9] - 48) * 100 + (buf[10] - 48) * 10 + (buf[11] - 48);
    const ok = status !== target.status || wanted === undefined || includes(buf, headEnd + 4, end, wanted);
    record(performance.now() - t0, ok ? status : "body");
  }
}

/** Where the next chunk-size line of a chunked body starts. */
interface ChunkCursor {
  at: number;
}

/**
 * The end offset of a chunked body once its last (zero-size) chunk and final CRLF are in `buf[0, end)`,
 * else Infinity; `cursor` advances over complete chunks so each byte is scanned once. No trailers.
 */
function chunkedEnd(buf: Uint8Array, end: number, cursor: ChunkCursor): number {
  while (true) {
    let lineEnd = -1;
    for (let i = cursor.at + 1; i < end; i++) {
      if (buf[i] === 10 && buf[i - 1] === 13) {
        lineEnd = i - 1;
        break;
      }
    }
    if (lineEnd < 0) return Infinity;
    const size = parseInt(decoder.decode(buf.subarray(cursor.at, lineEnd)), 16);
    if (!Number.isFinite(size)) throw new Error("malformed chunk size");
    const next = lineEnd + 2 + size + 2;
    if (size === 0) return next <= end ? next : Infinity;
    if (next > end) return Infinity;
    cursor.at = next;
  }
}

/** Whether `buf[from, to)` contains `needle`. */
function includes(buf: Uint8Array, from: number, to: number, needle: Uint8Array): boolean {
  const first = needle[0];
  outer: for (let i = from; i <= to - needle.length; i++) {
    if (buf[i] !== first) continue;
    for (let j = 1; j < needle.length; j++) if (buf[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

function indexOfHeadEnd(buf: Uint8Array, end: number): number {
  for (let i = 3; i < end; i++) {
    if (buf[i] === 10 && buf[i - 1] === 13 && buf[i - 2] === 10 && buf[i - 3] === 13) return i - 3;
  }
  return -1;
}
