/**
 * Manifests: process definitions kept as files on the host (`<anything>.agent.yaml`, `.agent.yml` or
 * `.agent.json`). A manifest is a mapping with `name`, optional `start` and `version`, and the
 * ProcessConfig fields at top level. `${VAR}` references are kept; the runtime resolves them at start.
 *
 * @example
 * ```yaml
 * # reports.agent.yaml
 * name: reports
 * start: true
 * model: openai:gpt-5-mini
 * instructions: Summarise new files.
 * triggers:
 *   - type: file_watch
 *     watch_path: ./inbox
 * ```
 *
 * @module
 */

import { join } from "node:path";
import { parse as parseYaml, YAMLError } from "yaml";
import { z } from "zod";
import {
  type ConfigIssue,
  formatIssueList,
  parseWith,
  PROCESS_CONFIG_NOUN,
  PROCESS_CONFIG_SHAPE,
  type ProcessConfig,
  strictObject,
} from "./config/mod.ts";
import { findEnvReferences, isPlainObject } from "./policy/mod.ts";

/** Process name rule. */
export const PROCESS_NAME_PATTERN: RegExp = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;

/** File name endings of manifests. */
export const MANIFEST_SUFFIXES: readonly string[] = [".agent.yaml", ".agent.yml", ".agent.json"];

/** Field name of a problem with the file as a whole. */
const WHOLE_FILE = "(manifest)";

const NAME_WORDS = "a process name: a letter, then up to 63 letters, digits, _ or -";

/** The manifest document: ProcessConfig fields plus `name`, `start` and `version`. */
const manifestSchema = strictObject({
  ...PROCESS_CONFIG_SHAPE,
  name: z.string({ error: NAME_WORDS }).regex(PROCESS_NAME_PATTERN),
  start: z.boolean({ error: "true or false" }).default(false),
  version: z.literal("1", { error: 'the string "1" (quoted in YAML)' }).optional(),
}, { noun: PROCESS_CONFIG_NOUN });

/** A manifest as loaded. */
export interface Manifest {
  /** Process name. */
  name: string;
  /** Whether the runtime starts the process after loading it. */
  start: boolean;
  /** The resolved config (`${VAR}` references not yet resolved). */
  config: ProcessConfig;
  /** Path of the file it came from. */
  file: string;
}

/** A manifest that cannot be loaded; the message names the file and each offending field. */
export class ManifestError extends Error {
  /** Path of the offending file (or of the directory when it cannot be read). */
  readonly file: string;
  /** Each problem found. */
  readonly issues: readonly ConfigIssue[];

  /** Creates the error from the file and its issues. */
  constructor(file: string, issues: readonly ConfigIssue[]) {
    super(`${file}: invalid manifest\n${formatIssueList(issues)}`);
    this.name = "ManifestError";
    this.file = file;
    this.issues = issues;
  }
}

function syntaxIssue(file: string, error: unknown): ManifestError {
  if (error instanceof YAMLError) {
    const firstLine = error.message.split("\n")[0].replace(/:$/, "");
    return new ManifestError(file, [{ field: WHOLE_FILE, expected: `valid YAML (${firstLine})` }]);
  }
  const position = error instanceof SyntaxError ? /line \d+ column \d+/.exec(error.message)?.[0] : undefined;
  const where = position === undefined ? "" : ` (error at ${position})`;
  return new ManifestError(file, [{ field: WHOLE_FILE, expected: `valid JSON${where}` }]);
}

function parseDocument(file: string, text: string): unknown {
  try {
    return file.endsWith(".json") ? JSON.parse(text) : parseYaml(text, { uniqueKeys: true });
  } catch (error) {
    throw syntaxIssue(file, error);
  }
}

/** Validates one manifest document read from `file`. */
export function parseManifest(file: string, document: unknown): Manifest {
  if (!isPlainObject(document)) {
    const got = document === null || document === undefined ? "an empty document" : "something else";
    throw new ManifestError(file, [{
      field: WHOLE_FILE,
      expected: `a mapping of manifest fields (got ${got})`,
    }]);
  }
  const result = parseWith(manifestSchema, document);
  if (!result.ok) throw new ManifestError(file, result.issues);
  const { name, start, version: _version, ...config } = result.config;
  return { name, start, config, file };
}

async function manifestFiles(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (!MANIFEST_SUFFIXES.some((suffix) => entry.name.endsWith(suffix))) continue;
      if (entry.isFile || (entry.isSymlink && (await Deno.stat(join(dir, entry.name))).isFile)) {
        names.push(entry.name);
      }
    }
  } catch (error) {
    if (error instanceof ManifestError) throw error;
    throw new ManifestError(dir, [{ field: "(directory)", expected: "a readable directory of manifests" }]);
  }
  return names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((name) => join(dir, name));
}

/**
 * Loads every manifest directly in `dir`, in file name order. Any problem (unreadable file, bad syntax,
 * invalid field, a name used twice) throws {@linkcode ManifestError}.
 */
export async function loadManifests(dir: string): Promise<Manifest[]> {
  const manifests: Manifest[] = [];
  const owners = new Map<string, string>();
  for (const file of await manifestFiles(dir)) {
    let text: string;
    try {
      text = await Deno.readTextFile(file);
    } catch {
      throw new ManifestError(file, [{ field: WHOLE_FILE, expected: "a readable UTF-8 file" }]);
    }
    const manifest = parseManifest(file, parseDocument(file, text));
    const owner = owners.get(manifest.name);
    if (owner !== undefined) {
      throw new ManifestError(file, [{
        field: "name",
        expected: `a name no other manifest uses (${owner} uses it)`,
      }]);
    }
    owners.set(manifest.name, file);
    manifests.push(manifest);
  }
  return manifests;
}

/** Names of the variables a manifest references (`instructions` excluded), sorted, each once. */
export function manifestEnvReferences(manifest: Manifest): string[] {
  const refs = findEnvReferences(manifest.config, { skip: (path) => path === "instructions" });
  return [...new Set(refs.map((ref) => ref.variable))].sort();
}
