/**
 * The health watch around a run's tool box: every call the model asks for is shown to the run's
 * {@linkcode HealthWatch} (stuck and loop detection) before it runs.
 *
 * @module
 */

import type { HealthWatch } from "../runtime/mod.ts";
import type { ToolBox } from "./tool_loop.ts";

/** `box` with its calls shown to `watch`; `box` itself when the run is not watched (health off). */
export function withHealthWatch(box: ToolBox, watch: HealthWatch | undefined): ToolBox {
  if (!watch) return box;
  return {
    specs: () => box.specs(),
    call(name, args, signal) {
      watch.toolCall(name, args);
      return box.call(name, args, signal);
    },
  };
}
