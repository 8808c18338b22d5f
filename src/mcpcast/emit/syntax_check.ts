/**
 * The syntax check every rendered file passes before anything is written: TypeScript through the
 * runtime's own type stripper (`node:module`'s `stripTypeScriptTypes`, a full parser that refuses
 * invalid syntax, in-process and offline), `deno.json` as JSON after its comment line. Full type
 * checking is the generated project's own `deno task check`.
 *
 * @module
 */

import { stripTypeScriptTypes } from "node:module";
import { McpcastError } from "../errors.ts";

/** Why `source` (a `.ts` file) does not parse, or undefined when it does. */
export function typeScriptProblem(source: string): string | undefined {
  try {
    stripTypeScriptTypes(source, { mode: "strip" });
    return undefined;
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    return text.split("\n", 1)[0].slice(0, 200);
  }
}

/** Why `source` (JSON, possibly with `//` comment lines) does not parse, or undefined when it does. */
export function jsonProblem(source: string): string | undefined {
  const withoutComments = source.split("\n").filter((line) => !line.trimStart().startsWith("//")).join("\n");
  try {
    JSON.parse(withoutComments);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message.slice(0, 200) : "invalid JSON";
  }
}

/**
 * Checks every `.ts` and `.json` file of `files` (path → text).
 *
 * @throws {McpcastError} naming the first file that does not parse.
 */
export function checkRenderedSyntax(files: Readonly<Record<string, string>>): void {
  for (const [path, text] of Object.entries(files)) {
    const problem = path.endsWith(".ts")
      ? typeScriptProblem(text)
      : path.endsWith(".json")
      ? jsonProblem(text)
      : undefined;
    if (problem !== undefined) {
      throw new McpcastError(`generated file ${path} does not parse (${problem}); nothing was written`);
    }
  }
}
