/**
 * The emit stage: a plan rendered into a Deno project and written with mcpcast's ownership rules.
 *
 * @module
 */

export { PLAN_FILE, renderDenoJson, renderProject, type RenderProjectOptions } from "./render_project.ts";
export { planApiName, writeProject, type WriteProjectOptions, type WriteResult } from "./write_project.ts";
export { DEFAULT_FRAMEWORK_IMPORT, type FrameworkImport, frameworkImports } from "./framework_imports.ts";
export { CONFIG_HEADER_TEXT, GENERATED_MARK, hasGeneratedHeader, HEADER_TEXT } from "./header.ts";
export { SCAFFOLD_FILES } from "./render_scaffold.ts";
export { type ToolGroup, toolGroups } from "./render_tools.ts";
export { checkRenderedSyntax } from "./syntax_check.ts";
