/**
 * A small structured logger. Records go to a sink; the default sink writes one line per record to stderr.
 *
 * @module
 */

/** A log level name. */
export type LogLevel = "debug" | "info" | "warning" | "error";

/** Log levels, lowest first. */
export const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "warning", "error"];

/** One log record. */
export interface LogRecord {
  /** ISO 8601 UTC time the record was made. */
  time: string;
  /** Severity. */
  level: LogLevel;
  /** Dotted logger name, e.g. `agentry.api`. */
  logger: string;
  /** Human message; never contains request bodies or secret values. */
  message: string;
  /** Structured fields, rendered as `key=value`. */
  fields: Record<string, unknown>;
}

/** Receives every record at or above the logger's level. */
export type LogSink = (record: LogRecord) => void;

/** Options for {@linkcode Logger}. */
export interface LoggerOptions {
  /** Lowest level written. @default "info" */
  level?: LogLevel;
  /** Where records go. @default {@linkcode stderrSink} */
  sink?: LogSink;
}

/** Renders a record as one line: `<time> <LEVEL> <logger>: <message> key=value ...`. */
export function formatLogLine(record: LogRecord): string {
  const parts = [`${record.time} ${record.level.toUpperCase()} ${record.logger}: ${record.message}`];
  for (const [key, value] of Object.entries(record.fields)) {
    if (value === undefined) continue;
    const text = typeof value === "string" ? value : JSON.stringify(value);
    parts.push(`${key}=${/[\s"=]/.test(text) ? JSON.stringify(text) : text}`);
  }
  return parts.join(" ");
}

/** Writes each record as one line on stderr. */
export function stderrSink(record: LogRecord): void {
  console.error(formatLogLine(record));
}

/** Structured logger with named children sharing one level and sink. */
export class Logger {
  /** Dotted name written on every record. */
  readonly name: string;
  #rank: number;
  #sink: LogSink;

  /** A logger named `name` (e.g. `agentry`). */
  constructor(name: string, options: LoggerOptions = {}) {
    this.name = name;
    this.#rank = LOG_LEVELS.indexOf(options.level ?? "info");
    this.#sink = options.sink ?? stderrSink;
  }

  /** A logger named `<this>.<suffix>` with the same level and sink. */
  child(suffix: string): Logger {
    return new Logger(`${this.name}.${suffix}`, { level: LOG_LEVELS[this.#rank], sink: this.#sink });
  }

  /** Whether records of this level are written. */
  enabled(level: LogLevel): boolean {
    return LOG_LEVELS.indexOf(level) >= this.#rank;
  }

  /** Writes a record when the level is enabled. */
  log(level: LogLevel, message: string, fields: Record<string, unknown> = {}): void {
    if (!this.enabled(level)) return;
    this.#sink({ time: new Date().toISOString(), level, logger: this.name, message, fields });
  }

  /** Debug record. */
  debug(message: string, fields?: Record<string, unknown>): void {
    this.log("debug", message, fields);
  }

  /** Info record. */
  info(message: string, fields?: Record<string, unknown>): void {
    this.log("info", message, fields);
  }

  /** Warning record. */
  warning(message: string, fields?: Record<string, unknown>): void {
    this.log("warning", message, fields);
  }

  /** Error record. */
  error(message: string, fields?: Record<string, unknown>): void {
    this.log("error", message, fields);
  }
}

/** A sink that keeps records in memory, for tests. */
export function memorySink(): LogSink & { records: LogRecord[] } {
  const records: LogRecord[] = [];
  const sink = (record: LogRecord) => {
    records.push(record);
  };
  return Object.assign(sink, { records });
}
