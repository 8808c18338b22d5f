/**
 * A YAML writer for plain JSON data in block style, made for plan files: much faster than building a
 * YAML document, and its output reads back (YAML 1.2 core schema) to exactly the data written.
 *
 * - Maps and lists in block style (two-space indent, list items under their key), `{}` and `[]` when
 *   empty, keys in insertion order.
 * - Strings plain when that cannot be misread (no indicator first, no `: ` or ` #`, not a number,
 *   boolean or null word, no control or line-break characters, fits the line); otherwise double-quoted
 *   with JSON escapes, U+0085, U+2028 and U+2029 as `\N`, `\L`, `\P`, other non-printables as `\uXXXX`,
 *   and long ones folded at single spaces near the line width.
 *
 * @module
 */

const PLAIN_FIRST = /^[^\s\-?:,[\]{}#&*!|>'"%@`]/;
const SPECIAL =
  /^(?:null|Null|NULL|~|true|True|TRUE|false|False|FALSE|yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF|y|Y|n|N)$/;
const NUMBER_LIKE =
  /^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|0x[0-9a-fA-F]+|0o[0-7]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|[-+]?[0-9][0-9_:.]*)$/;
// deno-lint-ignore no-control-regex -- control characters are exactly what must not be written plain
const UNSAFE_INSIDE = /: |\s#|[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff]|:$|\s$/;
const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_.$-]*$/;
const NON_PRINTABLE = /[\x7f-\x9f\u2028\u2029\ufeff]/g;
const NAMED: Readonly<Record<string, string>> = { "\u0085": "\\N", "\u2028": "\\L", "\u2029": "\\P" };

function plainSafe(text: string): boolean {
  return text !== "" && PLAIN_FIRST.test(text) && !UNSAFE_INSIDE.test(text) && !SPECIAL.test(text) &&
    !NUMBER_LIKE.test(text);
}

function quoted(text: string): string {
  return JSON.stringify(text).replace(
    NON_PRINTABLE,
    (char) => NAMED[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** `text` double-quoted and folded at single spaces so lines stay near `width` (continuations at `indent`). */
function foldedQuoted(text: string, column: number, indent: number, width: number): string {
  const whole = quoted(text);
  if (column + whole.length <= width) return whole;
  const lines: string[] = [];
  let start = 0;
  let room = width - column;
  while (whole.length - start > room) {
    let cut = -1;
    for (let i = Math.min(start + room, whole.length - 2); i > start; i--) {
      if (whole[i] === " " && whole[i - 1] !== " " && whole[i + 1] !== " " && whole[i - 1] !== "\\") {
        cut = i;
        break;
      }
    }
    if (cut === -1) break;
    lines.push(whole.slice(start, cut));
    start = cut + 1;
    room = width - indent;
  }
  lines.push(whole.slice(start));
  return lines.join(`\n${" ".repeat(indent)}`);
}

function scalar(value: unknown, column: number, indent: number, width: number): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : quoted(String(value));
  const text = String(value);
  if (plainSafe(text) && column + text.length <= width) return text;
  return foldedQuoted(text, column, indent, width);
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isEmpty(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (!isMap(value)) return false;
  for (const _key in value) return false;
  return true;
}

function keyText(key: string): string {
  return PLAIN_KEY.test(key) && !SPECIAL.test(key) ? key : quoted(key);
}

/** `n` spaces, cached: every line starts with one. */
const pads: string[] = [];
function spaces(n: number): string {
  return pads[n] ??= " ".repeat(n);
}

/** `n` spaces and a list dash, cached. */
const dashPads: string[] = [];
function dashes(n: number): string {
  return dashPads[n] ??= `${spaces(n)}- `;
}

/**
 * Where the writer puts its pieces: an array joined later, or the sink of {@linkcode streamYaml}. Lines
 * are never built by concatenation, which would allocate several intermediate strings per line of a
 * plan with tens of thousands of lines.
 */
interface Out {
  push(...pieces: string[]): unknown;
}

/** Writes a mapping's entries; the first entry's line starts with `first` instead of the indent. */
function mapLines(
  map: Record<string, unknown>,
  indent: number,
  first: string,
  width: number,
  out: Out,
): void {
  let lead = first;
  for (const key in map) {
    const value = map[key];
    if (value === undefined) continue;
    const name = keyText(key);
    out.push(lead, name, ":");
    if (Array.isArray(value) && value.length > 0) {
      out.push("\n");
      listLines(value, indent + 2, spaces(indent + 2), width, out);
    } else if (isMap(value) && !isEmpty(value)) {
      out.push("\n");
      mapLines(value, indent + 2, spaces(indent + 2), width, out);
    } else {
      const text = isEmpty(value)
        ? (Array.isArray(value) ? "[]" : "{}")
        : scalar(value, indent + name.length + 2, indent + 2, width);
      out.push(" ", text, "\n");
    }
    lead = spaces(indent);
  }
}

/** Writes a list's items; the first item's line starts with `first` instead of the indent. */
function listLines(list: unknown[], indent: number, first: string, width: number, out: Out): void {
  let lead = first;
  for (const item of list) {
    const dash = lead === spaces(indent) ? dashes(indent) : `${lead}- `;
    if ((Array.isArray(item) || isMap(item)) && !isEmpty(item)) {
      // An item of a top-level list (a tool, a dropped operation) is written on its own and joined at
      // once: its pieces die young instead of piling up in one array as long as the whole file.
      const into: Out = indent <= 2 ? [] : out;
      if (Array.isArray(item)) listLines(item, indent + 2, dash, width, into);
      else mapLines(item, indent + 2, dash, width, into);
      if (into !== out) out.push((into as string[]).join(""));
    } else {
      const text = isEmpty(item)
        ? (Array.isArray(item) ? "[]" : "{}")
        : scalar(item, indent + 2, indent + 2, width);
      out.push(dash, text, "\n");
    }
    lead = spaces(indent);
  }
}

/** Options of {@linkcode streamYaml}. */
export interface StreamYamlOptions {
  /** Line width the writer keeps to (long strings are folded). @default 100 */
  width?: number;
  /** Text written before the YAML (a comment header). @default "" */
  head?: string;
}

/** The size (characters) at which {@linkcode streamYaml} hands on what it has. */
const CHUNK_CHARS = 65_536;

/**
 * Writes block-style YAML for a JSON-compatible map (see the module doc) to `emit` in chunks of about
 * 64 KiB, `head` first, so that a large document never has to exist as one string. The chunks joined
 * are what {@linkcode writeYaml} returns.
 */
export function streamYaml(
  data: Record<string, unknown>,
  emit: (chunk: string) => void,
  options: StreamYamlOptions = {},
): void {
  const pending: string[] = [];
  let size = 0;
  const sink: Out = {
    push(...pieces: string[]) {
      for (const piece of pieces) {
        pending.push(piece);
        size += piece.length;
      }
      if (size < CHUNK_CHARS) return;
      emit(pending.join(""));
      pending.length = 0;
      size = 0;
    },
  };
  if (options.head) sink.push(options.head);
  mapLines(data, 0, "", options.width ?? 100, sink);
  if (pending.length > 0) emit(pending.join(""));
}

/** Block-style YAML for a JSON-compatible map, lines at most about `width` columns, ending in a newline. */
export function writeYaml(data: Record<string, unknown>, width = 100): string {
  const chunks: string[] = [];
  streamYaml(data, (chunk) => chunks.push(chunk), { width });
  return chunks.length === 0 ? "\n" : chunks.join("");
}
