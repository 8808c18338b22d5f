/**
 * Health monitoring of a process: detectors of stuck agents, tool-call loops, empty replies and failing
 * runs ({@linkcode HealthMonitor}, one per process as `AgentProcess.health`), and escalation delivery
 * with an SSRF-safe webhook policy ({@linkcode sendEscalation}).
 *
 * @example
 * ```ts
 * import { HealthMonitor } from "./mod.ts";
 * import { HealthConfigSchema } from "../config/health_config.ts";
 * import { Logger } from "../../log.ts";
 * const host = {
 *   name: "writer",
 *   processId: "p1",
 *   config: { health: HealthConfigSchema.parse({ enabled: true, stuck_threshold: 2 }) },
 *   suspend: () => Promise.resolve(),
 *   resolveReferences: <T>(value: T) => value,
 * };
 * const monitor = new HealthMonitor(host, { logger: new Logger("example") });
 * const run = monitor.watch("run-1");
 * run?.toolCall("search", { q: "x" });
 * run?.toolCall("search", { q: "x" });
 * run?.end({ status: "succeeded", reply: "done" });
 * console.log(monitor.status().last_anomaly?.type); // "stuck"
 * ```
 *
 * @module
 */

export {
  ANOMALY_TYPES,
  type AnomalyType,
  canonicalJson,
  detectEmpty,
  detectErrorRate,
  detectLoop,
  detectStuck,
  type Finding,
  isEmptyReply,
  observeCall,
  type ObservedCall,
} from "./detectors.ts";
export {
  type Anomaly,
  ANOMALY_HISTORY_LIMIT,
  type HealthHost,
  HealthMonitor,
  type HealthMonitorOptions,
  type HealthRunOutcome,
  type HealthStatus,
  type HealthWatch,
} from "./health_monitor.ts";
