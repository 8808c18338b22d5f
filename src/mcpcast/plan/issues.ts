/**
 * Plan validation errors as text: one `loc: message` line per problem, where `loc` is the field's
 * location (`tools[2].routes[0].path`). Input values are never part of a line.
 *
 * @module
 */

import type { z } from "zod";

/** Where the whole document is reported, when a problem has no narrower location. */
export const ROOT_LOCATION = "(plan)";

/** `path` as a location: `tools[0].params["user-id"]`, or {@linkcode ROOT_LOCATION} when empty. */
export function formatLocation(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else if (typeof part === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(part)) {
      out += out === "" ? part : `.${part}`;
    } else out += `[${JSON.stringify(String(part))}]`;
  }
  return out === "" ? ROOT_LOCATION : out;
}

/** One line per zod issue (one per unknown key), as `loc: message`. */
export function zodIssues(error: z.ZodError): string[] {
  const lines: string[] = [];
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) lines.push(`${formatLocation([...issue.path, key])}: unknown key`);
    } else if (issue.code === "invalid_key") {
      lines.push(`${formatLocation(issue.path)}: ${issue.issues[0]?.message ?? "invalid key"}`);
    } else {
      lines.push(`${formatLocation(issue.path)}: ${issue.message}`);
    }
  }
  return lines;
}

/** Lines as a list: `- line` each, joined by newlines. */
export function formatIssueList(lines: readonly string[]): string {
  return lines.map((line) => `- ${line}`).join("\n");
}
