/**
 * Stamps of the files `agentry serve --reload` watches, and what changed between two looks: every
 * `*.ts`, `*.js` and `*.json` file under a directory, recursively, skipping `node_modules` and
 * directories whose name starts with a dot.
 *
 * @module
 */

import { extname, join } from "node:path";

const WATCHED = new Set([".ts", ".js", ".json"]);

/** Watched files (absolute paths) with their modification stamps. */
export type FileStamps = Map<string, string>;

/** Stamps (mtime and size) of every watched file under `dir`; an unreadable or vanished entry is left out. */
export async function snapshotFiles(dir: string): Promise<FileStamps> {
  const stamps: FileStamps = new Map();
  const walk = async (current: string): Promise<void> => {
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(current));
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (entry.isDirectory) {
        if (!entry.name.startsWith(".") && entry.name !== "node_modules") await walk(path);
        continue;
      }
      if (!WATCHED.has(extname(entry.name))) continue;
      try {
        const info = await Deno.stat(path);
        if (info.isFile) stamps.set(path, `${info.mtime?.getTime() ?? 0}:${info.size}`);
      } catch {
        // removed meanwhile or a dangling link: not a file to watch
      }
    }
  };
  await walk(dir);
  return stamps;
}

/** Files added, modified or deleted between two snapshots. */
export function changedFiles(before: FileStamps, after: FileStamps): string[] {
  const changed = [...after].filter(([path, stamp]) => before.get(path) !== stamp).map(([path]) => path);
  for (const path of before.keys()) if (!after.has(path)) changed.push(path);
  return changed.sort();
}
