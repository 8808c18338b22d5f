/**
 * The web console (issue 20): a page served by `agentry runtime start` at `/console/`, a client of the public
 * control API only. Its files live in `static/` and are embedded into `_assets.ts` by
 * `scripts/console_assets.ts` (`deno task console`).
 *
 * @module
 */

export type { ConsoleAsset } from "./asset.ts";
export {
  CONSOLE_CSP,
  CONSOLE_PATH,
  type ConsoleHandler,
  consoleHandler,
  type ConsoleOptions,
} from "./console_handler.ts";
