/**
 * The tool surface of a generated server (issue 19): how large its `tools/list` is for a model
 * (`surfaceReport`, `renderSurfaceReport`), the compact description mode (`compactPlan`), and the
 * meta-tool mode's names (the mode itself is `api.tool_mode: meta`, served by the runtime).
 *
 * @module
 */

export {
  SURFACE_TOKENS_LARGE,
  SURFACE_TOKENS_TOO_LARGE,
  SURFACE_TOOLS_MANY,
  type SurfaceReport,
  surfaceReport,
  type SurfaceVerdict,
  type ToolSize,
} from "./surface_report.ts";
export { renderSurfaceReport, tokenText } from "./render_report.ts";
export { compactPlan } from "./compact_plan.ts";
export { META_TOOL_NAMES, type ToolMode } from "../plan/mod.ts";
