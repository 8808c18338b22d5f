/**
 * The option and answer types of `AgentRuntime` (`./runtime.ts`): what a runtime, a deploy and a
 * reconfigure take, and the runtime status body.
 *
 * @module
 */

import type { Logger } from "../log.ts";
import type { ConfigIssue, ProcessConfig, ProcessConfigInput } from "./config/mod.ts";
import type { EnvLookup, ProcessPartFactory, ProcessSource } from "./process_parts.ts";
import type { Invoker } from "./process_event.ts";
import type { ProcessStatus } from "./process_status.ts";
import type { ProcessStore, StoredProcess } from "./process_store.ts";
import type { Spool } from "./spool.ts";
import type { RuntimeEvents } from "./escalator.ts";

/** The default state directory, relative to the working directory. */
export const DEFAULT_DATA_DIR = ".agentry";

/** Options for `AgentRuntime`. */
export interface AgentRuntimeOptions {
  /** State directory; journals default to `<dataDir>/journal`. @default "./.agentry" */
  dataDir?: string;
  /** Parent logger. @default a logger named `agentry` writing to stderr */
  logger?: Logger;
  /**
   * Environment lookup for host-trusted processes (manifests, library code). @default the host
   * environment, for the variables this Deno process may read (it never prompts)
   */
  env?: EnvLookup;
  /** Capabilities plugged into every process. @default none */
  parts?: readonly ProcessPartFactory[];
  /** Where API deployments are kept across restarts. @default not kept */
  store?: ProcessStore;
  /**
   * Where each process keeps its queued events, dead letters and inbox messages. `runtime start` uses
   * `<data-dir>/queues` (see docs/durability.md). @default in memory (nothing survives the runtime)
   */
  spool?: Spool;
  /** Runs the agent for an event. @default none: events are dead-lettered as "no runner" */
  invoker?: Invoker;
  /**
   * Checks a parsed config beyond its schema (for example that the model's provider is known); the control
   * API answers its issues as 422 INVALID_CONFIG at deploy. @default no further checks
   */
  checkConfig?: (config: ProcessConfig) => ConfigIssue[];
  /**
   * Escalation events (issue 13): where escalations with `escalation.event_type` are emitted, `source` the
   * process name and `data` the escalation body. Pass the `EventBus` given to `createTriggersPart({ eventBus })`
   * so `event` triggers wake on escalations (`runtime start` does). @default none: such escalations are not
   * emitted, and each process that has one logs a warning once
   */
  events?: RuntimeEvents;
  /**
   * Durability (issue 13): every journal append is on disk (`fdatasync`, group commit) before it
   * resolves, so it survives a power loss (`runtime start --fsync`; the store and spool take their own
   * `sync`). @default false: written to the operating system, so it survives a crash of the runtime
   */
  fsync?: boolean;
}

/** Options for `AgentRuntime.deploy`. */
export interface DeployOptions {
  /** Where the process comes from. @default "library" */
  source?: ProcessSource;
  /** Start it after registering. A failed start rejects; the process stays registered. @default false */
  start?: boolean;
  /** Environment lookup for this process. @default the runtime's */
  env?: EnvLookup;
  /** Keep this JSON config in the store so the deployment survives a restart. */
  persistConfig?: Record<string, unknown>;
  /** A stored record this deploy brings back (its id and deploy time are kept; nothing is written). */
  restoredRecord?: StoredProcess;
}

/** The change of `AgentRuntime.reconfigure`. */
export interface ReconfigureChange {
  /** The new config, as a deploy takes it (parsed here; an invalid one rejects with INVALID_CONFIG). */
  config: ProcessConfigInput | ProcessConfig;
  /** Maps the stored JSON config (as deployed, references unresolved) to the new one. */
  rawConfig: (stored: Record<string, unknown>) => Record<string, unknown>;
}

/** `GET /runtime/status` body. */
export interface RuntimeStatus {
  /** Number of registered processes. */
  process_count: number;
  /** Status body of each, by name. */
  processes: Record<string, ProcessStatus>;
}
