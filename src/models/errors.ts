/**
 * The model layer's errors. Their messages are ours (a status and our own words): a provider's error text
 * never reaches a message, only the log-only `detail` field.
 *
 * @module
 */

/** How a model call failed. */
export type ModelErrorKind = "http" | "malformed" | "truncated" | "network" | "aborted";

/** Options of {@linkcode ModelError}. */
export interface ModelErrorOptions {
  /** The HTTP status, when there was one. */
  status?: number | null;
  /** The first 500 characters of the provider's answer, for logs only. */
  detail?: string;
  /** The underlying error. */
  cause?: unknown;
}

/** A model call that failed: an HTTP error status, a malformed or truncated answer, the network, an abort. */
export class ModelError extends Error {
  /** How it failed. */
  readonly kind: ModelErrorKind;
  /** The HTTP status (`null` when none applies). */
  readonly status: number | null;
  /** The start of the provider's answer, for logs only (never put it in an API answer). */
  readonly detail: string | undefined;

  /** A failure of `kind` described by `message` (our words, never the provider's). */
  constructor(kind: ModelErrorKind, message: string, options: ModelErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ModelError";
    this.kind = kind;
    this.status = options.status ?? null;
    this.detail = options.detail === undefined ? undefined : options.detail.slice(0, 500);
  }
}

/** A provider's required variable is unset; the message names the variable, never a value. */
export class MissingModelKeyError extends Error {
  /** The unset variable. */
  readonly variable: string;
  /** The hint an API answer carries: the variable's name is not a secret, and the operator must set it. */
  readonly publicDetail: { field: string; expected: string };

  /** `provider` needs `variable`. */
  constructor(provider: string, variable: string) {
    super(`model provider "${provider}" needs the environment variable ${variable}, which is not set`);
    this.name = "MissingModelKeyError";
    this.variable = variable;
    this.publicDetail = {
      field: "config.model",
      expected: `${variable} set in the runtime's environment (provider "${provider}")`,
    };
  }
}

/** A model string names a provider the registry does not know (or is not `"<provider>:<model>"`). */
export class UnknownProviderError extends Error {
  /** The provider part ("" when the string has none). */
  readonly provider: string;

  /** `provider` is unknown; `message` overrides the default wording. */
  constructor(provider: string, message?: string) {
    super(message ?? `unknown model provider "${provider}"`);
    this.name = "UnknownProviderError";
    this.provider = provider;
  }
}
