/**
 * Parsing spec text: JSON when it starts with `{`, else YAML with the `yaml` package in its safe core
 * schema (plain data only: no custom or language tags, no YAML 1.1 extras such as `!!binary`).
 *
 * @module
 */

import { parseDocument } from "yaml";
import { yamlEnvFailure } from "../../_util/permission_hint.ts";
import { McpcastError } from "../errors.ts";
import { unescapedPosition } from "./decode.ts";
import { scrubText } from "../_scrub.ts";

/** Options of {@link parseSpecText}. */
export interface ParseSpecTextOptions {
  /** Public name of the source, for messages. */
  label: string;
  /** Node budget, also bounding YAML alias expansion while converting to plain data. */
  maxNodes: number;
  /** Where `decodeSpecBytes` wrote escapes into the text: error positions are given without them. */
  escapes?: Uint32Array;
}

/**
 * The parsed value of spec text (not yet checked: see `checkDocument`). Throws {@link McpcastError} on
 * invalid JSON or YAML (with the position, never a snippet of the text), on YAML that expands aliases
 * past the node budget, on input nested too deeply for the parser, and when Deno refuses the `yaml`
 * package's look-up of `LOG_STREAM`/`LOG_TOKENS` (naming `--ignore-env`).
 */
export function parseSpecText(text: string, options: ParseSpecTextOptions): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return body.trimStart().startsWith("{") ? parseJson(body, options) : parseYaml(body, options);
  } catch (error) {
    if (error instanceof RangeError) {
      throw new McpcastError(`spec ${options.label} is nested too deeply to parse`);
    }
    const env = yamlEnvFailure(error);
    if (env !== undefined) throw new McpcastError(`cannot read YAML spec ${options.label}: ${env}`);
    throw error;
  }
}

function parseJson(text: string, options: ParseSpecTextOptions): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    const position = /position (\d+)/.exec(error.message)?.[1];
    const where = position === undefined
      ? ""
      : ` at ${lineAndColumn(text, Number(position), options.escapes)}`;
    throw new McpcastError(`spec ${options.label} is not valid JSON${where}`);
  }
}

function parseYaml(text: string, options: ParseSpecTextOptions): unknown {
  const document = parseDocument(text, {
    schema: "core",
    customTags: [],
    resolveKnownTags: false,
    merge: false,
    uniqueKeys: false,
    prettyErrors: true,
  });
  const first = document.errors[0];
  if (first !== undefined) {
    if (/call stack/i.test(first.message)) {
      throw new McpcastError(`spec ${options.label} is nested too deeply to parse`);
    }
    const base = scrubText(first.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, ""));
    const where = first.linePos ? ` at line ${first.linePos[0].line}, column ${first.linePos[0].col}` : "";
    throw new McpcastError(`spec ${options.label} is not valid YAML${where}: ${base}`);
  }
  try {
    // Aliases resolve to shared objects; the node budget walk later counts every use. This cap stops
    // the converter's own alias bookkeeping from running away first.
    return document.toJS({ maxAliasCount: options.maxNodes });
  } catch (error) {
    if (error instanceof ReferenceError && /alias/i.test(error.message)) {
      if (/exhaustion/.test(error.message)) {
        throw new McpcastError(
          `spec ${options.label} expands YAML aliases past ${options.maxNodes} values; ` +
            "raise MCPCAST_MAX_SPEC_NODES if the spec is genuine",
        );
      }
      throw new McpcastError(`spec ${options.label} is not valid YAML: ${scrubText(error.message)}`);
    }
    throw error;
  }
}

function lineAndColumn(text: string, position: number, escapes: Uint32Array | undefined): string {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < position && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line += 1;
      lineStart = i + 1;
    }
  }
  // Escapes hold no line breaks: only the column needs them taken out.
  const column = unescapedPosition(position, escapes) - unescapedPosition(lineStart, escapes) + 1;
  return `line ${line}, column ${column}`;
}
