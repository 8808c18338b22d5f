/**
 * The sandbox of agent-created tools: each call runs the tool's code in a fresh Deno subprocess started with
 * no permission at all (no read, write, net, env, run, ffi, sys; `--no-prompt`, `--no-remote`, `--no-npm`, no
 * config, an empty environment) and a bounded heap, with JSON in (stdin) and JSON out (stdout) and a time
 * limit.
 *
 * **Code contract.** The code is a TypeScript or JavaScript module whose default export is a function
 * taking the call's arguments (a JSON object) and returning, or resolving to, a JSON-serialisable value:
 * `export default function (args) { return { sum: args.a + args.b }; }` (it may be `async`). `undefined`
 * answers `null`.
 *
 * **What is enforced.** Permissions: every one denied, remote and npm imports refused. Memory: the child's
 * V8 heap is capped at {@linkcode SANDBOX_HEAP_MB} MB; a tool past it dies alone, the runtime does not.
 * Time: a call that has not answered after `timeoutMs` (default {@linkcode SANDBOX_TIMEOUT_MS}) is killed,
 * infinite loops included. Size: code up to {@linkcode MAX_TOOL_CODE_CHARS} characters, results up to
 * `maxOutputChars` characters of JSON. Isolation: a process per call, so nothing is kept between calls.
 * Starting the child costs some tens of milliseconds per call.
 *
 * The runtime needs Deno's run permission for its own executable: open mode with `allow_tool_creation` is
 * a program-starting deploy (API deploys need `--allow-command-deploys`; `agentry runtime start` grants run
 * for manifests that ask for it). Without it every call answers an error saying so.
 *
 * @module
 */

/** Longest tool code accepted, in characters. */
export const MAX_TOOL_CODE_CHARS = 20_000;

/** Default time limit of one call, in ms. */
export const SANDBOX_TIMEOUT_MS = 5_000;

/** Heap cap of a call's process, in MB. */
export const SANDBOX_HEAP_MB = 128;

/** Longest error text a call answers, in characters. */
const MAX_ERROR_CHARS = 1_000;

/** The fixed module each child runs: it reads `{code, args, check}` on stdin, imports the code, calls it. */
const HARNESS = `
const input = JSON.parse(await new Response(Deno.stdin.readable).text());
const say = (answer) => Deno.stdout.writeSync(new TextEncoder().encode(JSON.stringify(answer)));
try {
  const url = URL.createObjectURL(new Blob([input.code], { type: "application/typescript" }));
  const module = await import(url);
  if (typeof module.default !== "function") say({ error: "the code must export a default function" });
  else if (input.check) say({ json: "null" });
  else {
    const value = await module.default(input.args);
    const json = JSON.stringify(value === undefined ? null : value);
    say(json === undefined ? { error: "the result is not JSON" } : { json });
  }
} catch (error) {
  const name = error && typeof error === "object" && "name" in error ? String(error.name) : "Error";
  const message = error && typeof error === "object" && "message" in error ? String(error.message) : String(error);
  say({ error: name + ": " + message });
}
`;
const HARNESS_URL = `data:application/javascript,${encodeURIComponent(HARNESS)}`;

const CHILD_ARGS = [
  "run",
  "--quiet",
  "--no-config",
  "--no-lock",
  "--no-prompt",
  "--no-remote",
  "--no-npm",
  `--v8-flags=--max-old-space-size=${SANDBOX_HEAP_MB}`,
  HARNESS_URL,
];

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
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(Deno.execPath(), {
      args: CHILD_ARGS,
      clearEnv: true,
      env: { NO_COLOR: "1" },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    const denied = error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied;
    return {
      ok: false,
      error: denied
        ? "the tool sandbox needs the run permission (open mode with allow_tool_creation starts programs)"
        : "the tool sandbox could not start",
    };
  }
  const kill = () => {
    try {
      child.kill("SIGKILL");
    } catch {
      // already ended
    }
  };
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, timeoutMs);
  options.signal?.addEventListener("abort", kill, { once: true });
  try {
    const writer = child.stdin.getWriter();
    await writer.write(
      new TextEncoder().encode(JSON.stringify({ code, args, check: options.checkOnly === true })),
    )
      .catch(() => {});
    await writer.close().catch(() => {});
    const output = await child.output();
    options.signal?.throwIfAborted();
    if (timedOut) return { ok: false, error: `the tool took longer than ${timeoutMs} ms and was stopped` };
    return outcomeOf(output, maxOutput);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", kill);
  }
}

function outcomeOf(output: Deno.CommandOutput, maxOutput: number): SandboxOutcome {
  const text = new TextDecoder().decode(output.stdout);
  let answer: { json?: unknown; error?: unknown } | undefined;
  try {
    answer = JSON.parse(text);
  } catch {
    answer = undefined;
  }
  if (typeof answer?.json === "string") {
    return answer.json.length > maxOutput
      ? { ok: false, error: `the result is longer than ${maxOutput} characters` }
      : { ok: true, json: answer.json };
  }
  if (answer?.error !== undefined) {
    return { ok: false, error: String(answer.error).slice(0, MAX_ERROR_CHARS) };
  }
  const stderr = new TextDecoder().decode(output.stderr);
  if (/heap|out of memory/i.test(stderr)) {
    return { ok: false, error: `the tool ran out of memory (${SANDBOX_HEAP_MB} MB) and was stopped` };
  }
  return { ok: false, error: `the tool failed (exit code ${output.code})` };
}
