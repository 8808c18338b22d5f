/**
 * The Deno permissions a run of `agentry mcpcast` needs, checked before anything is read or written
 * (and before the guided setup asks its next question): read of a SOURCE file, network access to a
 * URL SOURCE's host, write and read of the output directory. A missing one is answered in one line
 * naming the flag to add; Deno's own permission prompt never appears.
 *
 * @module
 */

import { dirname } from "node:path";
import { missingPermission, type NeededPermission } from "../../_util/permission_hint.ts";
import { CliFailure } from "../exit.ts";

/** SOURCE given as a document rather than a path or URL (the loader's own test, `isInlineSpec`). */
function isInline(source: string): boolean {
  return /^(\{|openapi:|swagger:)/.test(source.trimStart());
}

/** Network access to the host of `url` (its port asked for too). */
function netOf(url: URL): NeededPermission {
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

/** The one-line answer for the first permission of `needs` not held, or undefined when all are. */
export function permissionProblem(needs: readonly NeededPermission[]): string | undefined {
  const hint = missingPermission(needs);
  return hint === undefined ? undefined : `mcpcast: ${hint}`;
}

/**
 * Refuses the run (exit 1, like a permission error anywhere in the CLI) when a permission of `needs`
 * is not held.
 */
export function requirePermissions(needs: readonly NeededPermission[]): void {
  const problem = permissionProblem(needs);
  if (problem !== undefined) throw new CliFailure(problem);
}
