/**
 * Opening the long-term memory store a process config asks for.
 *
 * @module
 */

import { join, resolve } from "node:path";
import type { ContextConfig } from "../config/mod.ts";
import { FileMemoryStore } from "./file_memory_store.ts";
import { InMemoryStore } from "./in_memory_store.ts";
import type { MemoryStore } from "./memory_store.ts";

/** Options of {@linkcode openMemory}. */
export interface OpenMemoryOptions {
  /** Process name (names the default directory). */
  process: string;
  /** The runtime's data directory. */
  dataDir: string;
  /** Resolves `${VAR}` references in `memory_persist_directory` (manifests may use them). */
  resolveReferences?: (text: string) => string;
}

/**
 * The store of `context.memory_provider`: undefined for `none`, an {@linkcode InMemoryStore} for
 * `in_memory`, a {@linkcode FileMemoryStore} for `file` in `memory_persist_directory` (relative to the
 * working directory) or else `<dataDir>/memory/<process>`.
 */
export async function openMemory(
  context: Pick<ContextConfig, "memory_provider" | "memory_persist_directory">,
  options: OpenMemoryOptions,
): Promise<MemoryStore | undefined> {
  switch (context.memory_provider) {
    case "none":
      return undefined;
    case "in_memory":
      return new InMemoryStore();
    case "file": {
      const written = context.memory_persist_directory;
      const directory = written === undefined
        ? join(options.dataDir, "memory", options.process)
        : resolve(options.resolveReferences?.(written) ?? written);
      return await FileMemoryStore.open(directory);
    }
  }
}
