/**
 * Feeds one process's happenings into the runtime's {@linkcode RuntimeEventLog}: lifecycle transitions,
 * runs started and ended, accepted trigger events, dead letters and health anomalies.
 *
 * @module
 */

import { type AgentProcess, runsOf } from "./process.ts";
import type { RuntimeEventLog } from "./runtime_events.ts";

/** Subscribes to `process` and emits its events on `log`; returns the function that stops it. */
export function observeProcess(process: AgentProcess, log: RuntimeEventLog): () => void {
  const name = process.name;
  const stops = [
    process.onTransition((t) => {
      log.emit("process.state", { process: name, state: t.to, previous: t.from, reason: t.reason, at: t.at });
    }),
    process.runLog.subscribe((progress) => {
      if (progress.type === "run_started") {
        const run = progress.run;
        log.emit("run.started", {
          process: name,
          run_id: run.run_id,
          event_id: run.event_id,
          trigger_id: run.trigger_id,
          trigger_type: run.trigger_type,
          attempt: run.attempt,
        });
      } else if (progress.type === "run_ended") {
        const run = progress.run;
        if (run.status === "running") return;
        log.emit("run.ended", {
          process: name,
          run_id: run.run_id,
          trigger_id: run.trigger_id,
          trigger_type: run.trigger_type,
          status: run.status,
          steps: process.runLog.get(run.run_id)?.step_count ?? run.model_turns + run.tool_calls,
          model_turns: run.model_turns,
          tool_calls: run.tool_calls,
          usage: { ...run.usage },
          duration_ms: run.duration_ms,
          error: run.error,
        });
      }
    }),
    runsOf(process).onLedger((change) => {
      if (change.kind === "accepted") {
        const event = change.event;
        log.emit("trigger.fired", {
          process: name,
          trigger_id: event.trigger_id,
          trigger_type: event.trigger_type,
          event_id: event.event_id,
        });
      } else {
        const { letter } = change;
        log.emit("dead_letter.added", {
          process: name,
          event_id: letter.event.event_id,
          trigger_id: letter.event.trigger_id,
          trigger_type: letter.event.trigger_type,
          reason: letter.reason,
          error: letter.error,
          attempts: letter.attempts,
          at: letter.dead_lettered_at,
        });
      }
    }),
    process.health.onAnomaly((anomaly) => {
      log.emit("anomaly", {
        process: name,
        type: anomaly.type,
        description: anomaly.description,
        run_id: anomaly.run_id,
        details: anomaly.details,
        at: anomaly.timestamp,
      });
    }),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
