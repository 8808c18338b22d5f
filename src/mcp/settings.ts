/**
 * Server settings from `AGENTRY_`-prefixed environment variables.
 *
 * | Variable | Setting | Effect |
 * |---|---|---|
 * | `AGENTRY_SERVER_NAME` | `serverName` | name when the server's options give none |
 * | `AGENTRY_LOG_LEVEL` | `logLevel` | debug, info, warning or error |
 * | `AGENTRY_TIMEOUT_DEFAULT` | `timeoutDefault` | seconds for items that declare no `timeout` |
 *
 * @module
 */

import { LOG_LEVELS, type LogLevel } from "../log.ts";

/** Settings read from the environment. */
export interface ServerSettings {
  /** Server name fallback. */
  serverName?: string;
  /** Log level. */
  logLevel?: LogLevel;
  /** Default timeout in seconds for items without their own. */
  timeoutDefault?: number;
}

/** Names of the environment variables read by {@linkcode loadServerSettings}. */
export const SETTINGS_ENV: readonly string[] = [
  "AGENTRY_SERVER_NAME",
  "AGENTRY_LOG_LEVEL",
  "AGENTRY_TIMEOUT_DEFAULT",
];

/** Reads settings through `env`; throws TypeError naming the variable on a bad value. */
export function loadServerSettings(env: (name: string) => string | undefined): ServerSettings {
  const settings: ServerSettings = {};
  const name = env("AGENTRY_SERVER_NAME");
  if (name) settings.serverName = name;
  const level = env("AGENTRY_LOG_LEVEL")?.toLowerCase();
  if (level) {
    if (!LOG_LEVELS.includes(level as LogLevel)) {
      throw new TypeError(`AGENTRY_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}`);
    }
    settings.logLevel = level as LogLevel;
  }
  const timeout = env("AGENTRY_TIMEOUT_DEFAULT");
  if (timeout) {
    const seconds = Number(timeout);
    if (!Number.isFinite(seconds) || seconds <= 0) {
      throw new TypeError("AGENTRY_TIMEOUT_DEFAULT must be a positive number of seconds");
    }
    settings.timeoutDefault = seconds;
  }
  return settings;
}
