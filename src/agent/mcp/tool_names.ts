/**
 * The names under which MCP tools are offered to a model.
 *
 * A tool is offered as `<server>__<tool>`, always prefixed with its server's name, so a tool keeps its
 * name when another server later adds one with the same name. Characters outside `[a-zA-Z0-9_-]` become
 * `_`. A name longer than {@linkcode MAX_TOOL_NAME_LENGTH} keeps its first 55 characters and gets `_`
 * plus eight hex digits of a hash of the server and tool names. See {@linkcode assignToolNames} for the
 * rare names that still clash.
 *
 * @module
 */

/** Longest name offered to a model (the common provider limit). */
export const MAX_TOOL_NAME_LENGTH = 64;

const SEPARATOR = "__";
const HASH_DIGITS = 8;

/** FNV-1a over UTF-16 code units, as eight hex digits: short, stable and synchronous. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(HASH_DIGITS, "0");
}

function withSuffix(name: string, suffix: string): string {
  return `${name.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length - 1)}_${suffix}`;
}

/**
 * The name a model sees for `tool` of `server`: `<server>__<tool>`, characters outside
 * `[a-zA-Z0-9_-]` replaced by `_`, shortened with a hash suffix past 64 characters.
 *
 * @example
 * ```ts
 * toolName("github", "issues.create"); // "github__issues_create"
 * ```
 */
export function toolName(server: string, tool: string): string {
  const name = `${server}${SEPARATOR}${tool}`.replace(/[^a-zA-Z0-9_-]/g, "_");
  if (name.length <= MAX_TOOL_NAME_LENGTH) return name;
  return withSuffix(name, shortHash(`${server}\u0000${tool}`));
}

/** A server's tool, by the names its server knows. */
export interface ServerToolRef {
  /** Server name (a key of `servers`). */
  server: string;
  /** The tool's own name on that server. */
  tool: string;
}

/**
 * Offered names for `tools`, in their order, all distinct. Each gets {@linkcode toolName}; when several
 * get the same name (replaced characters, or `__` inside a server or tool name), the ones whose
 * `<server>__<tool>` was written exactly so keep it and the others take `_<hash of server and tool>`;
 * any name still taken gets `_2`, `_3`, ... in the order of server name, then tool name. The result for
 * a tool depends only on the set of tools, never on the order they are given in.
 */
export function assignToolNames(tools: readonly ServerToolRef[]): string[] {
  const order = tools.map((_, index) => index).sort((a, b) => compareRefs(tools[a], tools[b]));
  const base = tools.map((ref) => toolName(ref.server, ref.tool));
  const count = new Map<string, number>();
  for (const name of base) count.set(name, (count.get(name) ?? 0) + 1);
  const names = base.map((name, index) => {
    const ref = tools[index];
    if (count.get(name) === 1 || `${ref.server}${SEPARATOR}${ref.tool}` === name) return name;
    return withSuffix(name, shortHash(`${ref.server}\u0000${ref.tool}`));
  });
  const taken = new Set<string>();
  for (const index of order) {
    let name = names[index];
    for (let n = 2; taken.has(name); n++) name = withSuffix(names[index], String(n));
    taken.add(name);
    names[index] = name;
  }
  return names;
}

function compareRefs(a: ServerToolRef, b: ServerToolRef): number {
  if (a.server !== b.server) return a.server < b.server ? -1 : 1;
  return a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0;
}
