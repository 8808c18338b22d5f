/**
 * Reading SOURCE for `agentry mcpcast`: the spec (telling a plan given by mistake apart), the plan
 * file of `--plan`, and McpcastError messages on one line.
 *
 * @module
 */

import { parse as parseYaml } from "yaml";
import { describeError } from "../../_util/errors.ts";
import { permissionFailure, yamlEnvFailure } from "../../_util/permission_hint.ts";
import {
  type EnvLookup,
  type ExternalRefsOptions,
  isPlanDocument,
  loadPlan,
  McpcastError,
  type McpcastPlan,
  type ParsedSpec,
  parseSpec,
} from "../../mcpcast/mod.ts";
import { CliFailure } from "../exit.ts";

/** Plan files larger than this are not inspected when telling a plan from a spec. */
const PLAN_SNIFF_BYTES = 4 * 1024 * 1024;

/** An McpcastError message on one line: a listing (`- loc: message`) joined with "; ". */
export function oneLineMessage(message: string): string {
  const lines = message.split("\n").map((line) => line.trim()).filter((line) => line !== "");
  if (lines.length <= 1) return lines[0] ?? "";
  const items = lines.slice(1).map((line) => line.replace(/^- /, ""));
  return `${lines[0].replace(/:$/, "")}: ${items.join("; ")}`;
}

/** Whether `source` is a local file holding an mcpcast plan. */
async function isPlanFile(source: string): Promise<boolean> {
  try {
    const info = await Deno.stat(source);
    if (!info.isFile || info.size > PLAN_SNIFF_BYTES) return false;
    return isPlanDocument(parseYaml(await Deno.readTextFile(source), { maxAliasCount: 100 }));
  } catch {
    return false;
  }
}

/**
 * Parses the spec at `source` (response schemas only with `responseSchemas`). A plan given as SOURCE
 * is refused with the command that regenerates from it.
 *
 * @throws {McpcastError} for a source that cannot be read or is not a valid spec.
 */
export async function parseSource(
  source: string,
  options: {
    baseUrl?: string;
    signal?: AbortSignal;
    env?: EnvLookup;
    externalRefs?: ExternalRefsOptions;
    responseSchemas?: boolean;
  } = {},
): Promise<ParsedSpec> {
  try {
    // Response schemas only serve evaluation (its mocks): read them only for --eval.
    return await parseSpec(source, { ...options, responseSchemas: options.responseSchemas ?? false });
  } catch (error) {
    if (error instanceof McpcastError && await isPlanFile(source.trim())) {
      throw new McpcastError(
        `${source.trim()} is an mcpcast plan, not a spec: regenerate the project from it with ` +
          `'agentry mcpcast --plan ${source.trim()}'`,
        { cause: error },
      );
    }
    throw error;
  }
}

/**
 * `source` as it may be shown: a URL without credentials, query or fragment (they may carry
 * secrets); anything else as given.
 */
export function publicSource(source: string): string {
  const trimmed = source.trim();
  const url = /^https?:\/\//i.test(trimmed) ? URL.parse(trimmed) : null;
  if (url === null) return trimmed;
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/**
 * Reads and validates the plan file of `--plan`.
 *
 * @throws {CliFailure} when the file cannot be read; {@linkcode McpcastError} when it is not a valid plan.
 */
export async function readPlanFile(path: string, shown: string): Promise<McpcastPlan> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw new CliFailure(`${shown}: no such plan file`);
    const denied = permissionFailure(error, { name: "read", path: shown });
    throw new CliFailure(
      denied === undefined ? `cannot read ${shown}: ${describeError(error)}` : `mcpcast: ${denied}`,
    );
  }
  try {
    return loadPlan(text);
  } catch (error) {
    const env = yamlEnvFailure(error);
    if (env !== undefined) throw new CliFailure(`cannot read ${shown}: ${env}`);
    if (error instanceof McpcastError) {
      throw new McpcastError(`${shown}: ${error.message}`, { cause: error });
    }
    throw error;
  }
}
