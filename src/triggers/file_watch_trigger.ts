/**
 * FileWatchTrigger: fires when files in a directory are created or modified, debounced per file.
 *
 * @module
 */

import { basename, relative, sep } from "node:path";
import type { Logger } from "../log.ts";
import { globMatcher } from "./glob.ts";
import { TriggerBase } from "./trigger_base.ts";

/** Net change reported by a file-watch event. */
export type FileEventType = "created" | "modified";

/** Every {@linkcode FileEventType}. */
export const FILE_EVENT_TYPES: readonly FileEventType[] = ["created", "modified"];

/** Payload of a file-watch event. */
export interface FileWatchPayload {
  /** Absolute path of the file (under the real path of the watched directory). */
  path: string;
  /** Base name of the file. */
  filename: string;
  /** Net change over the debounced burst. */
  event_type: FileEventType;
  /** Raw watcher kinds seen in the burst (`create`, `modify`, `remove`, `rename`), first-seen order. */
  event_types: string[];
}

/** Options for {@linkcode FileWatchTrigger}. */
export interface FileWatchTriggerOptions {
  /** Directory to watch; must exist when the trigger starts. */
  watchPath: string;
  /** Globs (see `globMatcher` in glob.ts): without `/` against the base name, else the relative path. @default ["*"] */
  patterns?: readonly string[];
  /** Net changes to report. @default ["created", "modified"] */
  events?: readonly FileEventType[];
  /** Quiet time per file before its burst of raw events is reported. @default 500 */
  debounceMs?: number;
  /** Watch subdirectories too. @default true */
  recursive?: boolean;
  /** Trigger id. @default `file_watch-<watchPath>` */
  triggerId?: string;
  /** Queue capacity; events beyond it are dropped with a warning. @default 100 */
  capacity?: number;
  /** Where drops and watcher failures are logged. */
  logger?: Logger;
}

const COUNTED_KINDS: ReadonlySet<string> = new Set(["create", "modify", "remove", "rename"]);

interface Burst {
  timer: ReturnType<typeof setTimeout> | undefined;
  kinds: string[];
  created: boolean;
}

/**
 * File-watch trigger over `Deno.watchFs`. Raw events for one file that come within `debounceMs` of each
 * other form a burst, reported once, `debounceMs` after its last raw event, as `created` when a create was
 * seen in it and `modified` otherwise. A burst after which the file is gone, and changes to directories,
 * report nothing. A file moved in by a rename reports `modified` (no create is seen).
 *
 * @example
 * ```ts
 * import { FileWatchTrigger } from "./file_watch_trigger.ts";
 * const trigger = new FileWatchTrigger({ watchPath: "./inbox", patterns: ["*.csv"], events: ["created"] });
 * await trigger.start();
 * const event = await trigger.waitForNext(); // payload: { path, filename, event_type: "created", ... }
 * await trigger.stop();
 * ```
 */
export class FileWatchTrigger extends TriggerBase {
  /** Directory as configured. */
  readonly watchPath: string;
  /** Globs a file must match (any one). */
  readonly patterns: readonly string[];
  /** Net changes reported. */
  readonly events: readonly FileEventType[];
  /** Debounce window in milliseconds. */
  readonly debounceMs: number;
  /** Whether subdirectories are watched. */
  readonly recursive: boolean;
  #matches: (path: string) => boolean;
  #root = "";
  #watcher: Deno.FsWatcher | undefined;
  #pump: Promise<void> | undefined;
  #bursts = new Map<string, Burst>();
  #settling = new Set<Promise<void>>();
  #closing = false;

  /** Checks the options; throws `RangeError` for bad events or debounce and `SyntaxError` for a bad glob. */
  constructor(options: FileWatchTriggerOptions) {
    super({
      triggerId: options.triggerId ?? `file_watch-${options.watchPath}`,
      type: "file_watch",
      capacity: options.capacity ?? 100,
      logger: options.logger,
    });
    this.watchPath = options.watchPath;
    this.patterns = [...(options.patterns ?? ["*"])];
    this.events = [...(options.events ?? FILE_EVENT_TYPES)];
    this.debounceMs = options.debounceMs ?? 500;
    this.recursive = options.recursive ?? true;
    if (this.events.some((event) => !FILE_EVENT_TYPES.includes(event))) {
      throw new RangeError(`events must be among ${FILE_EVENT_TYPES.join(", ")}`);
    }
    if (!(this.debounceMs >= 0) || !Number.isFinite(this.debounceMs)) {
      throw new RangeError("debounceMs must be a finite number >= 0");
    }
    this.#matches = globMatcher(this.patterns);
  }

  /** Stops the trigger (for `await using`). */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }

  /** Opens the watcher; rejects (`Deno.errors.NotFound`, `NotADirectory`) when the path is no directory. */
  protected override async listen(): Promise<void> {
    const info = await Deno.stat(this.watchPath);
    if (!info.isDirectory) throw new Deno.errors.NotADirectory(`not a directory: ${this.watchPath}`);
    this.#root = await Deno.realPath(this.watchPath);
    this.#closing = false;
    const watcher = Deno.watchFs(this.#root, { recursive: this.recursive });
    this.#watcher = watcher;
    this.#pump = this.#consume(watcher);
  }

  /** Closes the watcher, clears pending bursts and waits for reports in progress. */
  protected override async unlisten(): Promise<void> {
    this.#closing = true;
    for (const burst of this.#bursts.values()) clearTimeout(burst.timer);
    this.#bursts.clear();
    try {
      this.#watcher?.close();
    } catch {
      // already closed
    }
    this.#watcher = undefined;
    await this.#pump;
    await Promise.all(this.#settling);
  }

  async #consume(watcher: Deno.FsWatcher): Promise<void> {
    try {
      for await (const event of watcher) this.#onRaw(event);
    } catch (error) {
      if (this.#closing) return;
      this.logger?.error("file watcher failed", {
        trigger_id: this.triggerId,
        error: error instanceof Error ? error.name : typeof error,
      });
    }
  }

  #onRaw(event: Deno.FsEvent): void {
    if (this.#closing || !COUNTED_KINDS.has(event.kind)) return;
    for (const path of event.paths) {
      const rel = relative(this.#root, path).split(sep).join("/");
      if (rel === "" || rel === ".." || rel.startsWith("../") || !this.#matches(rel)) continue;
      const burst = this.#bursts.get(path) ?? { timer: undefined, kinds: [], created: false };
      clearTimeout(burst.timer);
      if (!burst.kinds.includes(event.kind)) burst.kinds.push(event.kind);
      if (event.kind === "create") burst.created = true;
      burst.timer = setTimeout(() => this.#settle(path, burst), this.debounceMs);
      this.#bursts.set(path, burst);
    }
  }

  #settle(path: string, burst: Burst): void {
    this.#bursts.delete(path);
    const report: Promise<void> = this.#report(path, burst).finally(() => this.#settling.delete(report));
    this.#settling.add(report);
  }

  async #report(path: string, burst: Burst): Promise<void> {
    let isFile: boolean;
    try {
      isFile = (await Deno.stat(path)).isFile;
    } catch {
      return; // gone at the end of the burst
    }
    const eventType: FileEventType = burst.created ? "created" : "modified";
    if (!isFile || this.#closing || !this.events.includes(eventType)) return;
    const payload: FileWatchPayload = {
      path,
      filename: basename(path),
      event_type: eventType,
      event_types: burst.kinds,
    };
    this.emit(this.makeEvent(payload));
  }
}
