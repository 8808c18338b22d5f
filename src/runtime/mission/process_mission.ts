/**
 * ProcessMission: the mission of one process as the process holds it. The tracker exists while the
 * current config has `mission.enabled` (a live patch with `enabled: true` builds a pending one, `enabled:
 * false` drops it; a patch that keeps it enabled keeps its progress).
 *
 * @module
 */

import type { Logger } from "../../log.ts";
import { RuntimeError } from "../errors.ts";
import { type MissionHost, type MissionState, MissionTracker } from "./mission_tracker.ts";

/** The `mission` key of the status body. */
export interface MissionStatus {
  /** Whether the current config turns the mission on. */
  enabled: boolean;
  /** Its state, or null when off. */
  state: MissionState | null;
  /** Evaluations held (0 when off). */
  evaluations: number;
}

/** A process's mission. */
export class ProcessMission {
  #host: MissionHost;
  #logger: Logger;
  #now: (() => number) | undefined;
  #tracker: MissionTracker | undefined;

  /** The mission of `process` (its suspend and stop carry out `on_complete`). */
  constructor(process: MissionHost, options: { logger: Logger; now?: () => number }) {
    this.#host = process;
    this.#logger = options.logger;
    this.#now = options.now;
  }

  /** The tracker while `mission.enabled`; built on first use, dropped when the mission is switched off. */
  get tracker(): MissionTracker | undefined {
    if (!this.#host.config.mission.enabled) return this.#tracker = undefined;
    return this.#tracker ??= new MissionTracker(this.#host, { logger: this.#logger, now: this.#now });
  }

  /** The `mission` key of the status body. */
  status(): MissionStatus {
    const tracker = this.tracker;
    if (!tracker) return { enabled: false, state: null, evaluations: 0 };
    const view = tracker.view();
    return { enabled: true, state: view.state, evaluations: view.evaluations.length };
  }
}

/** The mission of `process`; throws a {@linkcode RuntimeError} MISSION_DISABLED when it has none. */
export function requireMission(
  process: { name: string; mission: MissionTracker | undefined },
): MissionTracker {
  const tracker = process.mission;
  if (tracker) return tracker;
  const name = process.name;
  throw new RuntimeError("MISSION_DISABLED", `process ${name} has no mission`, {
    details: { process: name },
  });
}
