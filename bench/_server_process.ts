/**
 * A benchmark server in its own `deno run` subprocess: spawned, asked for its URL (first stdout line),
 * measured through `/proc/<pid>`, and always killed. Children also exit when their stdin closes, so
 * they go away even if this process dies without cleaning up.
 *
 * @module
 */

const LIVE = new Set<ServerProcess>();

/**
 * `--pin` (Linux with `taskset`, two CPUs or more): this process (the load generator) is moved to CPU 0 and
 * every server runs on CPU 1, so where the scheduler happens to place each server (next to the generator or
 * not) does not favour one server over another for a whole run.
 */
const PIN = Deno.args.includes("--pin");
let pinned = false;

function pinSelf(): void {
  if (!PIN || pinned) return;
  pinned = true;
  const out = new Deno.Command("taskset", { args: ["-a", "-p", "-c", "0", String(Deno.pid)] }).outputSync();
  if (!out.success) throw new Error(`--pin: taskset failed: ${new TextDecoder().decode(out.stderr)}`);
}
const TEMP_DIRS = new Set<string>();
let hooksInstalled = false;

/** Options for {@linkcode ServerProcess.spawn}. */
export interface SpawnOptions {
  /** Label used in messages. */
  label: string;
  /** How long to wait for the URL line. @default 30000 */
  readyTimeoutMs?: number;
  /** Extra `deno run` flags placed before the script (e.g. `--cpu-prof`). @default [] */
  denoArgs?: string[];
}

/** A running server subprocess. */
export class ServerProcess implements AsyncDisposable {
  /** Label used in messages. */
  readonly label: string;
  /** Base URL the server printed. */
  readonly url: string;
  /** OS process id of the `deno` process serving. */
  readonly pid: number;
  #child: Deno.ChildProcess;
  #stderr: string[];
  #exited = false;

  private constructor(label: string, url: string, child: Deno.ChildProcess, stderr: string[]) {
    this.label = label;
    this.url = url;
    this.pid = child.pid;
    this.#child = child;
    this.#stderr = stderr;
    child.status.then(() => (this.#exited = true));
  }

  /**
   * Runs `deno run --allow-all [denoArgs] <script> ...args` and waits for a first stdout line
   * `{"url": ...}`.
   */
  static async spawn(script: string, args: string[], options: SpawnOptions): Promise<ServerProcess> {
    installHooks();
    pinSelf();
    const run = ["run", "--allow-all", "--quiet", ...(options.denoArgs ?? []), script, ...args];
    const child = new Deno.Command(PIN ? "taskset" : Deno.execPath(), {
      args: PIN ? ["-c", "1", Deno.execPath(), ...run] : run,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).spawn();
    const stderr: string[] = [];
    drainLines(child.stderr, (line) => stderr.length < 200 && stderr.push(line));
    const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("no URL line in time")), options.readyTimeoutMs ?? 30_000);
      });
      let text = "";
      while (!text.includes("\n")) {
        const chunk = await Promise.race([lines.read(), timeout, child.status.then(() => ({ done: true }))]);
        if (chunk.done || !("value" in chunk)) throw new Error("exited before printing its URL");
        text += chunk.value;
      }
      const { url } = JSON.parse(text.slice(0, text.indexOf("\n")));
      const server = new ServerProcess(options.label, url, child, stderr);
      LIVE.add(server);
      (async () => {
        while (!(await lines.read()).done) { /* keep the pipe flowing */ }
      })().catch(() => undefined);
      return server;
    } catch (error) {
      child.kill("SIGKILL");
      await child.status;
      const why = error instanceof Error ? error.message : String(error);
      throw new Error(`${options.label} server failed to start: ${why}\n${stderr.join("\n")}`);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Last lines the server wrote on stderr. */
  get stderr(): readonly string[] {
    return this.#stderr;
  }

  /** Resident set size in bytes (`VmRSS`), plus the peak (`VmHWM`). */
  async memory(): Promise<{ rss: number; peak: number }> {
    const status = await Deno.readTextFile(`/proc/${this.pid}/status`);
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
    return { rss: kb("VmRSS") * 1024, peak: kb("VmHWM") * 1024 };
  }

  /** CPU time (user + system, all threads) used so far, in seconds. */
  async cpuSeconds(): Promise<number> {
    return cpuSecondsOf(await Deno.readTextFile(`/proc/${this.pid}/stat`));
  }

  /** Stops the server: SIGTERM, then SIGKILL after a grace period. */
  async stop(graceMs = 3000): Promise<void> {
    LIVE.delete(this);
    if (this.#exited) return;
    try {
      this.#child.stdin.close();
    } catch { /* already closed */ }
    try {
      this.#child.kill("SIGTERM");
    } catch { /* already gone */ }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), graceMs)));
    const outcome = await Promise.race([this.#child.status, late]);
    clearTimeout(timer);
    if (outcome === "late") {
      this.killNow();
      await this.#child.status;
    }
  }

  /** Same as {@linkcode stop}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.stop();
  }

  /** Kills at once (for exit hooks). */
  killNow(): void {
    if (this.#exited) return;
    try {
      this.#child.kill("SIGKILL");
    } catch { /* gone */ }
  }
}

/** Ticks per second of `/proc/<pid>/stat` times (Linux `USER_HZ`, 100 on every common build). */
const CLOCK_TICKS = 100;

/** CPU seconds (utime + stime) from a `/proc/<pid>/stat` line. */
export function cpuSecondsOf(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** CPU seconds this benchmark process has used (the load generator). */
export async function ownCpuSeconds(): Promise<number> {
  return cpuSecondsOf(await Deno.readTextFile("/proc/self/stat"));
}

/** CPU seconds every core of the machine has spent busy so far (`/proc/stat`, all processes). */
export async function machineBusySeconds(): Promise<number> {
  const line = (await Deno.readTextFile("/proc/stat")).split("\n", 1)[0];
  const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const idle = ticks[3] + ticks[4]; // idle + iowait
  return (ticks.reduce((sum, t) => sum + t, 0) - idle) / CLOCK_TICKS;
}

/** A temporary directory removed at the end, also when the benchmark is interrupted. */
export async function makeTempDir(prefix: string): Promise<AsyncDisposable & { path: string }> {
  installHooks();
  const path = await Deno.makeTempDir({ prefix });
  TEMP_DIRS.add(path);
  return {
    path,
    async [Symbol.asyncDispose]() {
      TEMP_DIRS.delete(path);
      await Deno.remove(path, { recursive: true }).catch(() => undefined);
    },
  };
}

function drainLines(stream: ReadableStream<Uint8Array>, onLine: (line: string) => unknown): void {
  (async () => {
    let rest = "";
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      const parts = (rest + chunk).split("\n");
      rest = parts.pop() ?? "";
      for (const line of parts) onLine(line);
    }
  })().catch(() => undefined);
}

function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  const killAll = () => {
    for (const server of LIVE) server.killNow();
    for (const dir of TEMP_DIRS) {
      try {
        Deno.removeSync(dir, { recursive: true });
      } catch { /* gone or busy */ }
    }
  };
  globalThis.addEventListener("unload", killAll);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => {
      killAll();
      Deno.exit(130);
    });
  }
}
