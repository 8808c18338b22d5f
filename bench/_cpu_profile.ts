/**
 * A V8 CPU profile (`deno run --cpu-prof`, main thread only) summarised: self time by source file (npm
 * packages by package, runtime internals by extension) and the functions with the most self time.
 *
 * @module
 */

/** Self time of one file or function. */
export interface ProfileEntry {
  /** File (`src/...`, `npm:<package>`, `ext:<extension>`, `(garbage collector)`, ...) or function. */
  name: string;
  /** Self time (ms). */
  ms: number;
  /** Share of the profiled time. */
  share: number;
}

/** What a profile shows. */
export interface ProfileSummary {
  /** Profiled wall time (ms), from the profiler's start to its end. */
  profiledMs: number;
  /** Self time by file, largest first. */
  files: ProfileEntry[];
  /** Self time by function, largest first. */
  functions: ProfileEntry[];
  /**
   * Self time charged to the nearest frame of the repository's own code (`src/`, `main.ts`) on the stack:
   * where the time of npm packages and builtins is spent on our behalf. Time with no such frame (start-up,
   * module loading, GC, idle) is `(no own frame)`.
   */
  ownCallers: ProfileEntry[];
}

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives, shortened: a repository path, an npm package, a runtime extension. */
export function fileOf(frame: CallFrame, root: string): string {
  const { url, functionName } = frame;
  if (url === "") return functionName.startsWith("(") ? functionName : "(native builtins)";
  const npm = /\/npm\/[^/]+\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (npm) return `npm:${npm[1]}`;
  if (url.startsWith("ext:")) return `ext:${url.slice(4).split("/")[0]}`;
  if (url.startsWith("node:")) return url;
  const path = url.startsWith("file://") ? decodeURIComponent(new URL(url).pathname) : url;
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}

/** Summarises the profile at `path`; `root` is the repository directory (to shorten file paths). */
export async function summariseProfile(path: string, root: string, top = 12): Promise<ProfileSummary> {
  const profile: CpuProfile = JSON.parse(await Deno.readTextFile(path));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  // Sample i lasts until sample i + 1 (timeDeltas[i] is the gap before sample i).
  for (let i = 0; i < profile.samples.length; i++) {
    const lasts = profile.timeDeltas[i + 1] ?? 0;
    selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + lasts);
  }
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const nameOf = (frame: CallFrame, file: string) =>
    frame.url === ""
      ? frame.functionName
      : `${frame.functionName || "(anonymous)"} ${file}:${frame.lineNumber + 1}`;
  const isOwn = (file: string) => file.startsWith("src/") || file === "main.ts";
  const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
  const files = new Map<string, number>();
  const functions = new Map<string, number>();
  const ownCallers = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame;
    const file = fileOf(frame, root);
    add(files, file, us);
    add(functions, nameOf(frame, file), us);
    let owner = "(no own frame)";
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const up = byId.get(at)!.callFrame;
      const upFile = fileOf(up, root);
      if (isOwn(upFile)) {
        owner = nameOf(up, upFile);
        break;
      }
    }
    add(ownCallers, owner, us);
  }
  const profiledUs = profile.endTime - profile.startTime;
  const ranked = (map: Map<string, number>) =>
    [...map].sort((x, y) => y[1] - x[1]).slice(0, top).map(([name, us]) => ({
      name,
      ms: us / 1000,
      share: us / profiledUs,
    }));
  return {
    profiledMs: profiledUs / 1000,
    files: ranked(files),
    functions: ranked(functions),
    ownCallers: ranked(ownCallers),
  };
}
