/**
 * The sandbox of agent-created tools: each call runs the tool's code in a fresh Deno `Worker` (a module
 * worker) whose permissions are all off (`deno: { permissions: "none" }`: no read, write, net, env, run,
 * ffi, sys or import), with JSON in and JSON out and a time limit.
 *
 * **Code contract.** The code is a TypeScript or JavaScript module whose default export is a function
 * taking the call's arguments (a JSON object) and returning, or resolving to, a JSON-serialisable value:
 * `export default function (args) { return { sum: args.a + args.b }; }` (it may be `async`). `undefined`
 * answers `null`.
 *
 * **What is enforced.** Time: a call that has not answered after `timeoutMs` (default
 * {@linkcode SANDBOX_TIMEOUT_MS}) is stopped by terminating its worker, infinite loops included. Size: code
 * up to {@linkcode MAX_TOOL_CODE_CHARS} characters, results up to `maxOutputChars` characters of JSON.
 * Permissions: every one denied (the worker's module graph too: a remote `import` needs the import
 * permission it lacks). Isolation: a worker per call, so nothing is kept between calls.
 *
 * **What is not.** Memory: Deno has no per-worker heap limit, so a tool that allocates without bound
 * exhausts the whole runtime's heap (V8's `--max-old-space-size` applies to the process, not a worker).
 * `npm:` specifiers built at run time still resolve from Deno's cache (and could be fetched from the npm
 * registry); the loaded package runs without permissions like the rest of the code.
 *
 * Worker permissions are an unstable Deno API: the runtime must run with `--unstable-worker-options`
 * (deno.json `"unstable": ["worker-options"]`); without it every call answers an error saying so.
 *
 * @module
 */

/** Longest tool code accepted, in characters. */
export const MAX_TOOL_CODE_CHARS = 20_000;

/** Default time limit of one call, in ms. */
export const SANDBOX_TIMEOUT_MS = 5_000;

/** Longest error text a call answers, in characters. */
const MAX_ERROR_CHARS = 1_000;

/** The fixed module each worker starts: it imports the code from a blob URL and calls its default export. */
const HARNESS = `
self.onmessage = async (event) => {
  const { code, args, check } = event.data;
  try {
    const url = URL.createObjectURL(new Blob([code], { type: "application/typescript" }));
    let module;
    try {
      module = await import(url);
    } finally {
      URL.revokeObjectURL(url);
    }
    if (typeof module.default !== "function") {
      self.postMessage({ error: "the code must export a default function" });
      return;
    }
    if (check) {
      self.postMessage({ json: "null" });
      return;
    }
    const value = await module.default(args);
    const json = JSON.stringify(value === undefined ? null : value);
    if (json === undefined) self.postMessage({ error: "the result is not JSON" });
    else self.postMessage({ json });
  } catch (error) {
    const name = error && typeof error === "object" && "name" in error ? String(error.name) : "Error";
    const message = error && typeof error === "object" && "message" in error ? String(error.message) : String(error);
    self.postMessage({ error: name + ": " + message });
  }
};
`;
const HARNESS_URL = `data:application/javascript,${encodeURIComponent(HARNESS)}`;

/** Options of {@linkcode runSandboxed}. */
export interface SandboxOptions {
  /** Time limit, in ms. @default SANDBOX_TIMEOUT_MS */
  timeoutMs?: number;
  /** Longest result, in characters of JSON. @default 20000 */
  maxOutputChars?: number;
  /** Aborting terminates the worker and rejects with the reason. */
  signal?: AbortSignal;
  /** Only load the code and check it has a default export function; the function is not called. */
  checkOnly?: boolean;
}

/** What a sandboxed call answered: its result as JSON text, or an error to show the model. */
export type SandboxOutcome = { ok: true; json: string } | { ok: false; error: string };

/**
 * Runs `code`'s default export with `args` in a worker without permissions. Resolves with the result as
 * JSON, or with an error (the code's own error text, a timeout, an over-long result); rejects only when
 * `options.signal` aborts.
 */
export async function runSandboxed(
  code: string,
  args: unknown,
  options: SandboxOptions = {},
): Promise<SandboxOutcome> {
  options.signal?.throwIfAborted();
  if (code.length > MAX_TOOL_CODE_CHARS) {
    return { ok: false, error: `the code is longer than ${MAX_TOOL_CODE_CHARS} characters` };
  }
  const timeoutMs = options.timeoutMs ?? SANDBOX_TIMEOUT_MS;
  const maxOutput = options.maxOutputChars ?? 20_000;
  let worker: Worker;
  try {
    worker = new Worker(HARNESS_URL, {
      type: "module",
      name: "agentry-tool",
      deno: { permissions: "none" },
    });
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const hint = /unstable/i.test(text)
      ? "the tool sandbox needs Deno's --unstable-worker-options (deno.json unstable: worker-options)"
      : "the tool sandbox could not start";
    return { ok: false, error: hint };
  }
  const answer = Promise.withResolvers<SandboxOutcome>();
  const timer = setTimeout(
    () => answer.resolve({ ok: false, error: `the tool took longer than ${timeoutMs} ms and was stopped` }),
    timeoutMs,
  );
  const onAbort = () => answer.reject(options.signal!.reason);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  worker.onmessage = (event: MessageEvent<{ json?: string; error?: string }>) => {
    const { json, error } = event.data;
    if (typeof json === "string") {
      answer.resolve(
        json.length > maxOutput
          ? { ok: false, error: `the result is longer than ${maxOutput} characters` }
          : { ok: true, json },
      );
    } else answer.resolve({ ok: false, error: String(error).slice(0, MAX_ERROR_CHARS) });
  };
  worker.onerror = (event) => {
    event.preventDefault();
    answer.resolve({
      ok: false,
      error: `the tool failed: ${String(event.message).slice(0, MAX_ERROR_CHARS)}`,
    });
  };
  worker.onmessageerror = () => answer.resolve({ ok: false, error: "the tool's answer could not be read" });
  try {
    worker.postMessage({ code, args, check: options.checkOnly === true });
    return await answer.promise;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    worker.terminate();
  }
}
