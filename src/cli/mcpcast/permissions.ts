/**
 * The Deno permissions a run of `agentry mcpcast` needs, checked before anything is read or written
 * (and before the guided setup asks its next question): read of a SOURCE file, network access to a
 * URL SOURCE's host, write and read of the output directory, and (for YAML) that the yaml library's
 * env look-ups are ignored. A missing one is answered in one line naming the flag to add; Deno's own
 * permission prompt never appears.
 *
 * @module
 */

import { dirname } from "node:path";
import { missingPermission, type NeededPermission, yamlEnvMissing } from "../../_util/permission_hint.ts";
import { CliFailure } from "../exit.ts";

/** SOURCE given as a document rather than a path or URL (the loader's own test, `isInlineSpec`). */
function isInline(source: string): boolean {
  return /^(\{|openapi:|swagger:)/.test(source.trimStart());
}

/** Network access to the host of `url` (its port asked for too). */
export function netOf(url: URL): NeededPermission {
  const port = url.port !== "" ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  return { name: "net", host: url.host, query: `${url.hostname}:${port}` };
}

/**
 * What reading SOURCE needs: the file (and its directory with `--external-refs`), or the URL's host;
 * nothing for an inline document. Hosts of `--allow-ref-host` need network access too.
 */
export function sourceNeeds(source: string, options: { externalRefs?: { allowHosts: string[] } } = {}) {
  const trimmed = source.trim();
  const needs: NeededPermission[] = [];
  const url = /^https?:\/\//i.test(trimmed) ? URL.parse(trimmed) : null;
  if (url !== null) needs.push(netOf(url));
  else if (!isInline(trimmed) && !trimmed.startsWith("~")) {
    needs.push({ name: "read", path: options.externalRefs === undefined ? trimmed : dirname(trimmed) });
  }
  for (const host of options.externalRefs?.allowHosts ?? []) needs.push({ name: "net", host });
  return needs;
}

/** What writing into the output directory needs: write, and read (to see what it holds). */
export function outDirNeeds(shownDir: string): NeededPermission[] {
  return [{ name: "write", path: shownDir }, { name: "read", path: shownDir }];
}

/**
 * Whether reading `source` may parse YAML: anything but inline JSON or a path or URL ending in `.json`
 * (a spec that is not valid JSON is sniffed as a plan, which is YAML, only after it failed).
 */
export function mayReadYaml(source: string): boolean {
  const trimmed = source.trim();
  const path = /^https?:\/\//i.test(trimmed) ? URL.parse(trimmed)?.pathname ?? "" : trimmed;
  return !(trimmed.startsWith("{") || /\.json$/i.test(path));
}

/**
 * The one-line answer for the first permission of `needs` not held (then, with `yaml`, for the yaml
 * library's env look-ups), or undefined when nothing is missing.
 */
export function permissionProblem(
  needs: readonly NeededPermission[],
  options: { yaml?: boolean } = {},
): string | undefined {
  const hint = missingPermission(needs) ?? (options.yaml ? yamlEnvMissing() : undefined);
  return hint === undefined ? undefined : `mcpcast: ${hint}`;
}

/**
 * Refuses the run (exit 1, like a permission error anywhere in the CLI) when a permission of `needs`
 * is not held.
 */
export function requirePermissions(
  needs: readonly NeededPermission[],
  options: { yaml?: boolean } = {},
): void {
  const problem = permissionProblem(needs, options);
  if (problem !== undefined) throw new CliFailure(problem);
}
