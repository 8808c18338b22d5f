/**
 * The generated API token on disk: `runtime start` writes a token it generated to `<data-dir>/api_token`
 * (owner-only, mode 0600, replaced at every start), so an operator who lost the printed line, or works in
 * another terminal, reads it with `cat .agentry/api_token`. A token the operator chose (`--token`,
 * `AGENTRY_API_TOKEN`) is never written, and a stale file from an earlier start is removed then.
 *
 * @module
 */

import { join } from "node:path";

/** Name of the token file inside the data directory. */
export const TOKEN_FILE = "api_token";

/** Writes `token` to `<dataDir>/api_token` atomically (a fresh owner-only file renamed into place). */
export async function writeTokenFile(dataDir: string, token: string): Promise<string> {
  const path = join(dataDir, TOKEN_FILE);
  const temporary = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.writeTextFile(temporary, `${token}\n`, { mode: 0o600, createNew: true });
    await Deno.rename(temporary, path);
  } catch (error) {
    await Deno.remove(temporary).catch(() => {});
    throw error;
  }
  return path;
}

/** Removes `<dataDir>/api_token` if an earlier start left one (its token no longer opens the API). */
export async function removeTokenFile(dataDir: string): Promise<void> {
  await Deno.remove(join(dataDir, TOKEN_FILE)).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
}
