/**
 * Names mcpcast derives: tool names from operation ids, tool module ("group") names, the patterns a
 * plan checks names against, and object keys for emitted TypeScript. Every derivation is
 * deterministic: the same ids in the same order give the same names.
 *
 * @example
 * ```ts
 * import { toolNameFor } from "./names.ts";
 * const taken = new Set<string>();
 * for (const id of ["getPetById", "getPetById", "delete"]) taken.add(toolNameFor(id, taken));
 * // taken: get_pet_by_id, get_pet_by_id_2, delete_op
 * ```
 *
 * @module
 */

import type { Operation } from "../types.ts";

/** What a tool name must match: lower-case snake, starting with a letter, at most 64 characters. */
export const TOOL_NAME_PATTERN: RegExp = /^[a-z][a-z0-9_]{0,63}$/;

/** What an API name must match (`petstore`, `widgets-api`). */
export const API_NAME_PATTERN: RegExp = /^[a-z0-9][a-z0-9_-]{0,62}$/;

const TOOL_NAME_MAX = 64;
const GROUP_NAME_MAX = 40;

/**
 * Lower-case words JavaScript refuses as a binding name in a module (strict mode), and `undefined`,
 * which a generated module must never shadow. Contextual words that are legal binding names in
 * TypeScript (`type`, `of`, `get`, `async`, `from`) are not included.
 */
export const JS_RESERVED_WORDS: ReadonlySet<string> = new Set(
  ("await break case catch class const continue debugger default delete do else enum export extends " +
    "false finally for function if implements import in instanceof interface let new null package private " +
    "protected public return static super switch this throw true try typeof var void while with yield " +
    "arguments eval undefined").split(" "),
);

/**
 * Tool names no generated tool may take:
 * - `approvals_list`, `approvals_decide`: the framework's own tools in `pending` approval mode;
 * - the lower-case identifiers of the generated project (reference section D): `server`, `upstream`,
 *   `config`, `approval`, `register`, `main`, `ctx`, `args`, `select_route`, `build_server`, and the
 *   globals the generated code calls, `fetch` and `console`;
 * - `constructor` and `prototype`, which `Object.prototype` lookups would resolve;
 * - every word in {@linkcode JS_RESERVED_WORDS}.
 *
 * Python's builtins and soft keywords (`list`, `type`, `str`…) are not reserved here: they are
 * ordinary identifiers in TypeScript, so `list` stays `list`.
 */
export const RESERVED_TOOL_NAMES: ReadonlySet<string> = new Set([
  "approvals_list",
  "approvals_decide",
  "server",
  "upstream",
  "config",
  "approval",
  "register",
  "main",
  "ctx",
  "args",
  "select_route",
  "build_server",
  "fetch",
  "console",
  "constructor",
  "prototype",
  ...JS_RESERVED_WORDS,
]);

/**
 * Group names a tool module may not take, because the generated project already uses the module
 * name (`src/<name>.ts`, `src/tools/mod.ts`) or the import binding (`register`, `register_all`).
 * Words in {@linkcode JS_RESERVED_WORDS} are refused too (a group is also an import binding).
 */
export const RESERVED_GROUP_NAMES: ReadonlySet<string> = new Set([
  "mod",
  "main",
  "config",
  "upstream",
  "approval",
  "server",
  "tools",
  "register",
  "register_all",
]);

/** `text` cut to `max` characters, without the trailing underscores a cut can leave. */
function cut(text: string, max: number): string {
  return text.slice(0, max).replace(/_+$/, "");
}

/**
 * `text` as lower snake case: camelCase and acronym boundaries become `_` (`getHTMLPage` →
 * `get_html_page`), every run of characters outside `[a-z0-9_]` becomes one `_`, runs of `_`
 * collapse and the ends are trimmed. Letter/digit boundaries are kept (`v2`, `oauth2`).
 */
function snakeCase(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z](?!s(?![a-z]))[a-z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^_|_$/g, "");
}

/**
 * Why `name` cannot be a tool name, or undefined when it can. The message does not repeat the name,
 * so a caller can prefix the location it validates.
 */
export function toolNameProblem(name: string): string | undefined {
  if (!TOOL_NAME_PATTERN.test(name)) return `must match ${TOOL_NAME_PATTERN.source}`;
  if (RESERVED_TOOL_NAMES.has(name)) return "is reserved by the generated server or by JavaScript";
  return undefined;
}

/**
 * The tool name for an operation id: `getPetById` → `get_pet_by_id`. An id with no usable
 * character becomes `operation`, one starting with a digit `op_<name>`; the name is cut to 64
 * characters; a reserved name gets `_op` (`delete` → `delete_op`, `server` → `server_op`); a name
 * in `taken` gets `_2`, `_3`… within the 64-character cap. The result is always valid and never in
 * `taken`; the caller adds it to its set.
 *
 * Unlike the original, a cut never leaves a trailing underscore before `_op` or a suffix.
 *
 * @example
 * ```ts
 * import { toolNameFor } from "./names.ts";
 * toolNameFor("repos/get-branch", new Set()); // "repos_get_branch"
 * toolNameFor("getPetById", new Set(["get_pet_by_id"])); // "get_pet_by_id_2"
 * ```
 */
export function toolNameFor(operationId: string, taken: ReadonlySet<string>): string {
  let name = snakeCase(operationId);
  if (name === "") name = "operation";
  else if (!/^[a-z]/.test(name)) name = `op_${name}`;
  name = cut(name, TOOL_NAME_MAX);
  if (RESERVED_TOOL_NAMES.has(name)) name = `${cut(name, TOOL_NAME_MAX - 3)}_op`;
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) {
    const suffix = `_${n}`;
    candidate = `${cut(name, TOOL_NAME_MAX - suffix.length)}${suffix}`;
  }
  return candidate;
}

/** `text` as a group name, or "" when nothing usable is left. */
function cleanGroup(text: string): string {
  let group = snakeCase(text);
  if (group === "") return "";
  if (/^[0-9]/.test(group)) group = `g_${group}`;
  group = cut(group, GROUP_NAME_MAX);
  if (RESERVED_GROUP_NAMES.has(group) || JS_RESERVED_WORDS.has(group)) group = `${group}_tools`;
  return group;
}

/**
 * The tool module an operation's tool lives in (`src/tools/<group>.ts`): its first tag, else its
 * first path segment that is not empty, a `{placeholder}` or a version (`v1`), as lower snake case
 * of at most 40 characters; a leading digit gets `g_`, a reserved or JavaScript-reserved name
 * `_tools`; nothing usable gives `api`. A first tag or segment that cleans to nothing (`"~"`,
 * `"用户"`) falls back to the path.
 *
 * @example
 * ```ts
 * import { groupFor } from "./names.ts";
 * groupFor({ tags: [], path: "/v1/admin/purge" }); // "admin"
 * groupFor({ tags: ["Pet Store"], path: "/pets" }); // "pet_store"
 * ```
 */
export function groupFor(op: Pick<Operation, "tags" | "path">): string {
  const fromTag = op.tags.length > 0 ? cleanGroup(op.tags[0]) : "";
  if (fromTag !== "") return fromTag;
  for (const segment of op.path.split("/")) {
    if (segment === "" || segment.startsWith("{") || /^v\d+$/i.test(segment)) continue;
    const group = cleanGroup(segment);
    if (group !== "") return group;
  }
  return "api";
}

/**
 * `name` written as a key of an emitted object literal. Wire and parameter names stay as the spec
 * writes them (no identifier mangling is needed in TypeScript): a name that is an identifier is
 * written bare, any other name as a JSON string literal, and `__proto__` as a computed key, since
 * a literal `__proto__:` key would set the object's prototype instead of adding a property.
 *
 * @example
 * ```ts
 * import { objectKey } from "./names.ts";
 * objectKey("petId"); // petId
 * objectKey("user-id"); // "user-id"
 * objectKey("__proto__"); // ["__proto__"]
 * ```
 */
export function objectKey(name: string): string {
  if (name === "__proto__") return '["__proto__"]';
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}
