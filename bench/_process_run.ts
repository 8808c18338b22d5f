/**
 * One whole-process run measured from outside: wall time, CPU time and peak memory of a command and
 * everything it starts.
 *
 * Method: the command runs under GNU time (`/usr/bin/time -f ... -o FILE`), which reports the kernel's
 * accounting of the finished process (`wait4` rusage): user and system CPU seconds of the process and
 * of every descendant it waited for, and `ru_maxrss`, the largest peak resident set of any single
 * process in that tree. Wall time is taken here around spawn and exit (`performance.now()`). While it
 * runs, a sampler walks the process tree every few milliseconds through `/proc/<pid>/task/<tid>/children`
 * and records how many processes were seen at once and the largest sum of their `VmRSS`: when only one
 * process was ever seen, the kernel's single-process peak is the whole tree's peak; when several ran at
 * once, the sampled sum is the tree's figure (a lower bound, sampled).
 *
 * @module
 */

/** GNU time, needed for the kernel's accounting (`apt-get install time` where it is missing). */
export const GNU_TIME = "/usr/bin/time";
const SAMPLE_MS = 5;

/** Figures of one finished run. */
export interface ProcessFigures {
  /** Wall seconds from spawn to exit. */
  wallS: number;
  /** User CPU seconds (process and waited-for descendants, all threads). */
  userS: number;
  /** System CPU seconds. */
  sysS: number;
  /** Largest peak resident set of a single process in the tree (bytes, kernel `ru_maxrss`). */
  maxRssBytes: number;
  /** Largest sum of `VmRSS` over the tree seen by the sampler (bytes). */
  treeRssBytes: number;
  /** Most processes seen in the tree at once (the command itself counts 1). */
  processes: number;
  /** Exit code of the command. */
  code: number;
}

/** What to run. */
export interface RunOptions {
  /** Working directory. */
  cwd?: string;
  /** Environment added to the inherited one. */
  env?: Record<string, string>;
}

/** A run's figures and what the command printed (stdout whole, stderr's tail). */
export interface MeasuredRun {
  /** The figures. */
  figures: ProcessFigures;
  /** Standard output. */
  stdout: string;
  /** Last 64 KB of standard error. */
  stderr: string;
}

/** Whether GNU time is installed. */
export function hasGnuTime(): boolean {
  try {
    return Deno.statSync(GNU_TIME).isFile;
  } catch {
    return false;
  }
}

/** Runs `argv` to its end under GNU time and returns its figures (the exit code is reported, not thrown). */
export async function runMeasured(argv: readonly string[], options: RunOptions = {}): Promise<MeasuredRun> {
  const timeFile = await Deno.makeTempFile({ prefix: "agentry-bench-time-" });
  try {
    const started = performance.now();
    const child = new Deno.Command(GNU_TIME, {
      args: ["-f", "%e %U %S %M %x", "-o", timeFile, ...argv],
      cwd: options.cwd,
      env: { NO_COLOR: "1", ...options.env },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    let running = true;
    const sampled = sampleTree(child.pid, () => running);
    const [stdout, stderr, status] = await Promise.all([
      new Response(child.stdout).text(),
      tail(child.stderr, 64 * 1024),
      child.status,
    ]);
    const wallS = (performance.now() - started) / 1000;
    running = false;
    const tree = await sampled;
    const fields = (await Deno.readTextFile(timeFile)).trim().split("\n").at(-1)!.split(" ").map(Number);
    const [, userS, sysS, maxRssKb, code] = fields;
    if (fields.length !== 5 || fields.some((n) => !Number.isFinite(n))) {
      throw new Error(`unreadable GNU time output for ${argv.join(" ")} (status ${status.code})`);
    }
    return {
      figures: {
        wallS,
        userS,
        sysS,
        maxRssBytes: maxRssKb * 1024,
        treeRssBytes: tree.rssBytes,
        processes: tree.processes,
        code,
      },
      stdout,
      stderr,
    };
  } finally {
    await Deno.remove(timeFile).catch(() => undefined);
  }
}

/** Samples the descendants of `root` (GNU time itself excluded) until `alive()` turns false. */
async function sampleTree(
  root: number,
  alive: () => boolean,
): Promise<{ rssBytes: number; processes: number }> {
  let rssBytes = 0;
  let processes = 0;
  while (alive()) {
    const pids = descendants(root);
    let sum = 0;
    for (const pid of pids) sum += vmRss(pid);
    if (sum > rssBytes) rssBytes = sum;
    if (pids.length > processes) processes = pids.length;
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
  }
  return { rssBytes, processes };
}

/** Every live descendant of `pid` (children of each of its threads, recursively). */
function descendants(pid: number): number[] {
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    let tasks: string[] = [];
    try {
      tasks = [...Deno.readDirSync(`/proc/${parent}/task`)].map((entry) => entry.name);
    } catch { /* exited */ }
    for (const tid of tasks) {
      let text = "";
      try {
        text = Deno.readTextFileSync(`/proc/${parent}/task/${tid}/children`);
      } catch { /* exited */ }
      for (const child of text.trim().split(/\s+/).filter(Boolean).map(Number)) {
        out.push(child);
        queue.push(child);
      }
    }
  }
  return out;
}

/** `VmRSS` of `pid` in bytes; 0 when it is gone. */
function vmRss(pid: number): number {
  try {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** The last `limit` bytes of a stream, decoded. */
async function tail(stream: ReadableStream<Uint8Array>, limit: number): Promise<string> {
  let text = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    text = (text + chunk).slice(-limit);
  }
  return text;
}
