/**
 * Test helpers for the control API's `_test.ts` files: a runtime in a temporary data directory, the API
 * built on it, a memory log, and a small request helper that goes through `app.fetch` (no socket) and
 * checks every answer against the schema its route declares in the OpenAPI document.
 *
 * @module
 */

import { Logger, type LogRecord, memorySink } from "../src/log.ts";
import { AgentRuntime, type AgentRuntimeOptions } from "../src/runtime/mod.ts";
import type { ControlApi } from "../src/api/mod.ts";
import { createControlApi } from "../src/api/mod.ts";
import type { ControlApiOptions } from "../src/api/mod.ts";
import { checkAnswer } from "../src/api/_test_answers.ts";

/** The bearer token test APIs use unless told otherwise. */
export const TOKEN = "test-token-7f3a9c";

/** Client address passed to `app.fetch` by {@linkcode TestApi.call}. */
export const CLIENT = "127.0.0.1";

/** Options of {@linkcode testApi}: API settings plus how to build the runtime. */
export interface TestApiOptions extends ControlApiOptions {
  /** Builds the runtime (e.g. a subclass). @default `new AgentRuntime(options)` */
  makeRuntime?: (options: AgentRuntimeOptions) => AgentRuntime;
}

/** Options of one {@linkcode TestApi.call}. */
export interface CallOptions {
  /** A JSON body (serialised, with a JSON content type). */
  json?: unknown;
  /** A raw body, sent as is. */
  body?: BodyInit;
  /** Bearer token; `null` sends none. @default {@linkcode TOKEN} */
  token?: string | null;
  /** Extra headers. */
  headers?: Record<string, string>;
}

/** One answer, read completely. */
export interface Answer {
  /** HTTP status. */
  status: number;
  /** Response headers. */
  headers: Headers;
  /** Raw body text. */
  text: string;
  /** Parsed JSON body (undefined when the body is empty). */
  // deno-lint-ignore no-explicit-any
  body: any;
}

/** A runtime and its API in a temporary data directory, removed on disposal. */
export interface TestApi extends AsyncDisposable {
  /** The app under test. */
  app: ControlApi;
  /** The runtime behind it. */
  runtime: AgentRuntime;
  /** The runtime's (temporary) data directory, real path. */
  dataDir: string;
  /** Every log record written so far. */
  records: LogRecord[];
  /** Sends a request through `app.fetch` with {@linkcode CLIENT} as the client address. */
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
}

/** A logger writing into memory, and its records. */
export function memoryLogger(name = "t"): { logger: Logger; records: LogRecord[] } {
  const sink = memorySink();
  return { logger: new Logger(name, { sink }), records: sink.records };
}

/** Builds a runtime and its API. The environment is empty unless `env` is given. */
export async function testApi(options: TestApiOptions = {}): Promise<TestApi> {
  const { makeRuntime = (o: AgentRuntimeOptions) => new AgentRuntime(o), ...apiOptions } = options;
  const dataDir = await Deno.realPath(await Deno.makeTempDir({ prefix: "agentry_api_" }));
  const { logger, records } = memoryLogger();
  const runtime = makeRuntime({ dataDir, logger });
  let app: ControlApi;
  try {
    app = createControlApi(runtime, { authToken: TOKEN, env: () => undefined, ...apiOptions });
  } catch (error) {
    await Deno.remove(dataDir, { recursive: true });
    throw error;
  }
  return {
    app,
    runtime,
    dataDir,
    records,
    call: (method, path, callOptions) => send(app, method, path, callOptions),
    async [Symbol.asyncDispose]() {
      try {
        await runtime.close();
      } finally {
        await Deno.remove(dataDir, { recursive: true });
      }
    },
  };
}

/** Sends one request to `app` and reads the answer. */
export async function send(
  app: ControlApi,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer> {
  const headers = new Headers(options.headers);
  const token = options.token === undefined ? TOKEN : options.token;
  if (token !== null) headers.set("authorization", `Bearer ${token}`);
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers.set("content-type", "application/json");
  }
  const init: RequestInit & { duplex?: "half" } = { method, headers, body };
  if (body instanceof ReadableStream) init.duplex = "half";
  const response = await app.fetch(new Request(`http://127.0.0.1:9100${path}`, init), { remoteAddr: CLIENT });
  const text = await response.text();
  const answer = {
    status: response.status,
    headers: response.headers,
    text,
    body: text === "" ? undefined : JSON.parse(text),
  };
  checkAnswer(app, { method, path }, answer);
  return answer;
}

/** Deploys `config` as `name` and returns the answer. */
export function deploy(
  api: TestApi,
  name: string,
  config: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
): Promise<Answer> {
  return api.call("POST", "/api/v1/processes", { json: { name, config, ...extra } });
}

/** Resolves when `promise` does, or rejects after `ms` milliseconds; the timer never outlives the call. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
