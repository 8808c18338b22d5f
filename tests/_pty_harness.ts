/**
 * Runs `main.ts` under a real pseudo-terminal (Python's `pty` module), answering prompts as they
 * appear: for tests of interactive commands.
 *
 * @module
 */

import { CONFIG, MAIN } from "./_cli_harness.ts";

const DRIVER = `
import json, os, pty, select, signal, sys, time
steps = json.loads(sys.argv[1])
deadline = time.monotonic() + float(sys.argv[2])
cmd = sys.argv[3:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(cmd[0], cmd)
out = b""
seen = 0
while True:
    if time.monotonic() > deadline:
        os.kill(pid, signal.SIGKILL)
        sys.stderr.write("pty driver: timeout\\n")
        break
    ready, _, _ = select.select([fd], [], [], 0.2)
    if ready:
        try:
            data = os.read(fd, 65536)
        except OSError:
            data = b""
        if not data:
            break
        out += data
    while steps:
        at = out.find(steps[0][0].encode(), seen)
        if at < 0:
            break
        seen = at + len(steps[0][0])
        os.write(fd, (steps.pop(0)[1] + "\\n").encode())
_, status = os.waitpid(pid, 0)
sys.stdout.write(out.decode("utf-8", "replace"))
if steps:
    sys.stderr.write("pty driver: never asked: " + json.dumps(steps) + "\\n")
code = os.waitstatus_to_exitcode(status)
sys.exit(code if code >= 0 else 128 - code)
`;

/** Whether python3 with the `pty` module is available. */
export async function hasPty(): Promise<boolean> {
  try {
    const probe = await new Deno.Command("python3", {
      args: ["-c", "import pty"],
      stdout: "null",
      stderr: "null",
    })
      .output();
    return probe.success;
  } catch {
    return false;
  }
}

/** Output of a run under a pseudo-terminal: the terminal's text (stdout and stderr mixed, with echo). */
export interface PtyResult {
  code: number;
  /** Everything the terminal showed, line breaks normalised to "\n". */
  screen: string;
  /** The driver's own complaints (timeout, prompts never shown). */
  driver: string;
}

/**
 * Runs `deno run FLAGS main.ts ...args` on a pseudo-terminal in `cwd` (FLAGS: `options.flags`, by
 * default `-A`); each step is [text to wait for, line to type]. Bounded by `timeoutMs`.
 */
export async function runOnPty(
  args: string[],
  steps: Array<[string, string]>,
  options: { cwd?: string; timeoutMs?: number; flags?: string[] } = {},
): Promise<PtyResult> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const flags = options.flags ?? ["-A"];
  const deno = [Deno.execPath(), "run", "--quiet", `--config=${CONFIG}`, ...flags, MAIN, ...args];
  const output = await new Deno.Command("python3", {
    args: ["-c", DRIVER, JSON.stringify(steps), String(timeoutMs / 1000), ...deno],
    cwd: options.cwd,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return {
    code: output.code,
    screen: decode(output.stdout).replaceAll("\r\n", "\n"),
    driver: decode(output.stderr),
  };
}
