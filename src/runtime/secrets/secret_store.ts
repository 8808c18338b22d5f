/**
 * SecretStore: the secrets scoped to one process, resolved at start, rotated and revoked over the
 * control API, read by the agent's built-in tool, and never shown.
 *
 * @module
 */

import { epochSeconds } from "../../_util/ids.ts";
import type { ProcessJournal } from "../../journal/mod.ts";
import { envReferenceNames, type SecretsConfig } from "../config/mod.ts";
import { resolveEnvReferences, UnresolvedEnvReferenceError } from "../policy/mod.ts";
import type { EnvLookup } from "../process_parts.ts";
import { RuntimeError } from "../errors.ts";
import { type HeldSecret, maskForms, redactionForms } from "./_held_secret.ts";

/** Entry type of secret events: `{action: "access" | "rotate" | "revoke", secret_name?}`; never a value. */
export const SECRET_ACCESS_ENTRY = "secret_access";

/** What replaces a secret value in redacted text. */
export const REDACTED = "[REDACTED]";

/**
 * The byte arrays `store` has held since its last resolve, for tests that check a revoke zero-fills them:
 * a friend accessor, so the field stays `#private`. Set by `SecretStore`'s static block.
 */
export let heldBytesOf: (store: SecretStore) => readonly Uint8Array[];

/** One secret as `GET /processes/{name}/secrets` lists it: never its value, nor its variable's name. */
export interface SecretMetadata {
  /** Secret name. */
  name: string;
  /** True while it holds a value that has not expired. */
  active: boolean;
  /** How the config gives it: a literal value, or a `${VAR}` reference to the host environment. */
  source: "literal" | "env";
  /** When it expires, epoch seconds; null without a ttl or while it holds no value. */
  expires_at: number | null;
  /** When it was last rotated, epoch seconds; null when not rotated since it was resolved. */
  rotated_at: number | null;
}

/** The answer of `GET /processes/{name}/secrets`. */
export interface SecretsMetadata {
  /** Process name. */
  name: string;
  /** Always true (a process without secret scoping answers 400 SECRETS_DISABLED). */
  enabled: true;
  /** The configured secrets, by name. */
  secrets: SecretMetadata[];
  /** Number of active secrets. */
  active_count: number;
}

/** Options for {@linkcode SecretStore}. */
export interface SecretStoreOptions {
  /** Process name. */
  process: string;
  /** The current `secrets` section of the process (values may hold `${VAR}` references). */
  settings: () => SecretsConfig;
  /** Where accesses, rotations and revocations are journaled (`secret_access`). */
  journal?: ProcessJournal;
}

/**
 * Secrets of one process. Values are held as bytes so {@linkcode SecretStore.revoke} overwrites them
 * with zeros; a ttl counts from the resolve or the last rotation, and an expired secret reads as
 * undefined. {@linkcode SecretStore.redact} replaces every value held since the last resolve (rotated
 * and expired ones included) until a revoke.
 *
 * @example
 * ```ts
 * import { SecretStore } from "./secret_store.ts";
 * const settings = { enabled: true, secrets: { API: "${API_KEY}" }, default_ttl: null, ttls: {}, revoke_on_stop: true };
 * const secrets = new SecretStore({ process: "writer", settings: () => settings });
 * secrets.resolve((name) => (name === "API_KEY" ? "k-123" : undefined));
 * console.log(secrets.redact("key=k-123")); // key=[REDACTED]
 * await secrets.revoke();
 * ```
 */
export class SecretStore {
  static {
    heldBytesOf = (store) => [...store.#history];
  }

  #process: string;
  #settings: () => SecretsConfig;
  #journal: ProcessJournal | undefined;
  #held = new Map<string, HeldSecret>();
  /** Every byte array handed out since the last resolve, zero-filled at revoke. */
  #history: Uint8Array[] = [];
  /** What `redact` masks, built from `#history` when first needed after it changed. */
  #forms: string[] | undefined;
  #resolved = false;

  /** A store holding nothing until {@linkcode SecretStore.resolve}. */
  constructor(options: SecretStoreOptions) {
    this.#process = options.process;
    this.#settings = options.settings;
    this.#journal = options.journal;
  }

  /** Whether the config turns secret scoping on. */
  get enabled(): boolean {
    return this.#settings().enabled;
  }

  /** Whether values are held (resolved and not revoked since). */
  get resolved(): boolean {
    return this.#resolved;
  }

  /** Number of secrets holding a value that has not expired. */
  get activeCount(): number {
    let count = 0;
    for (const secret of this.#held.values()) if (this.#active(secret)) count++;
    return count;
  }

  /**
   * Resolves every configured secret (literal, or `${VAR}` through `env`) and starts the ttl clocks,
   * replacing values held before. Throws when a reference cannot be resolved; the message names the
   * secret and the variable (for the log), never a value. Does nothing when secret scoping is off.
   */
  resolve(env: EnvLookup): void {
    const settings = this.#settings();
    this.#wipe();
    if (!settings.enabled) return;
    const now = Date.now();
    const held = new Map<string, HeldSecret>();
    for (const [name, written] of Object.entries(settings.secrets)) {
      let value: string;
      try {
        value = resolveEnvReferences(written, env);
      } catch (error) {
        this.#wipe();
        const variable = error instanceof UnresolvedEnvReferenceError ? error.variable : "?";
        throw new Error(`secret ${name}: environment variable ${variable} is not set or not allowed`);
      }
      held.set(name, this.#hold(value, { ttl: settings.ttls[name] ?? settings.default_ttl, now }));
    }
    this.#held = held;
    this.#resolved = true;
  }

  /** The value of `name`, or undefined when unknown, expired or revoked. Journals the access (never the value). */
  get(name: string): string | undefined {
    const secret = this.#held.get(name);
    if (!secret) return undefined;
    void this.#journal?.record(SECRET_ACCESS_ENTRY, { action: "access", secret_name: name });
    return this.#active(secret) ? new TextDecoder().decode(secret.bytes) : undefined;
  }

  /**
   * Replaces the value of `name`; the ttl (seconds, else the configured one) counts from now. Throws a
   * {@linkcode RuntimeError} SECRETS_DISABLED, SECRET_NOT_FOUND (not configured) or ROTATION_FAILED (empty
   * value, ttl not > 0, or values not held: never resolved, or revoked). Resolves the new expiry.
   */
  async rotate(name: string, value: string, ttl?: number): Promise<{ expires_at: number | null }> {
    const settings = this.#requireEnabled();
    if (!Object.hasOwn(settings.secrets, name)) {
      throw new RuntimeError("SECRET_NOT_FOUND", `no secret named ${name}`, {
        details: { secretName: name },
      });
    }
    const why = value === "" || typeof value !== "string"
      ? "the value is empty"
      : ttl !== undefined && !(Number.isFinite(ttl) && ttl > 0)
      ? "the ttl is not a number > 0"
      : !this.#resolved
      ? "the secrets are not resolved (process not started, or revoked)"
      : undefined;
    if (why !== undefined) {
      throw new RuntimeError("ROTATION_FAILED", `secret ${name} not rotated: ${why}`, {
        details: { secretName: name },
      });
    }
    const now = Date.now();
    const secret = this.#hold(value, { ttl: ttl ?? settings.ttls[name] ?? settings.default_ttl, now });
    secret.rotatedAt = now;
    this.#held.set(name, secret);
    await this.#journal?.record(SECRET_ACCESS_ENTRY, { action: "rotate", secret_name: name });
    return { expires_at: secret.expiresAt === null ? null : epochSeconds(secret.expiresAt) };
  }

  /** Overwrites every value held since the last resolve with zeros and forgets them; journaled when any was held. */
  async revoke(): Promise<void> {
    const held = this.#resolved;
    this.#wipe();
    if (held) await this.#journal?.record(SECRET_ACCESS_ENTRY, { action: "revoke" });
  }

  /** The `GET /processes/{name}/secrets` answer; throws a {@linkcode RuntimeError} SECRETS_DISABLED without scoping. */
  metadata(): SecretsMetadata {
    const settings = this.#requireEnabled();
    const secrets = Object.entries(settings.secrets).map(([name, written]): SecretMetadata => {
      const secret = this.#held.get(name);
      const active = secret !== undefined && this.#active(secret);
      return {
        name,
        active,
        source: envReferenceNames(written).length > 0 ? "env" : "literal",
        expires_at: active && secret.expiresAt !== null ? epochSeconds(secret.expiresAt) : null,
        rotated_at: secret?.rotatedAt === undefined ? null : epochSeconds(secret.rotatedAt),
      };
    });
    return {
      name: this.#process,
      enabled: true,
      secrets,
      active_count: secrets.filter((s) => s.active).length,
    };
  }

  /** The active values (for redaction by callers that need the list). */
  values(): string[] {
    const decoder = new TextDecoder();
    return [...this.#held.values()].filter((s) => this.#active(s)).map((s) => decoder.decode(s.bytes));
  }

  /**
   * `text` with every value held since the last resolve (active, expired or rotated away) replaced by
   * `[REDACTED]`, longest first; also their JSON-escaped forms, so values inside JSON text are caught.
   */
  redact(text: string): string {
    const forms = this.#forms ??= redactionForms(this.#history);
    return forms.length === 0 ? text : maskForms(text, forms, REDACTED);
  }

  /** Whether {@linkcode SecretStore.redact} has anything to replace (some value was held since the last resolve). */
  get redacts(): boolean {
    return (this.#forms ??= redactionForms(this.#history)).length > 0;
  }

  /** Throws a {@linkcode RuntimeError} SECRETS_DISABLED unless the config turns secret scoping on. */
  assertEnabled(): void {
    this.#requireEnabled();
  }

  #requireEnabled(): SecretsConfig {
    const settings = this.#settings();
    if (!settings.enabled) {
      throw new RuntimeError("SECRETS_DISABLED", `process ${this.#process} has no secret scoping`, {
        details: { process: this.#process },
      });
    }
    return settings;
  }

  #hold(value: string, options: { ttl: number | null; now: number }): HeldSecret {
    const bytes = new TextEncoder().encode(value);
    this.#history.push(bytes);
    this.#forms = undefined;
    const expiresAt = options.ttl === null ? null : options.now + options.ttl * 1000;
    return { bytes, expiresAt };
  }

  #active(secret: HeldSecret): boolean {
    return secret.expiresAt === null || Date.now() < secret.expiresAt;
  }

  #wipe(): void {
    for (const bytes of this.#history) bytes.fill(0);
    this.#history = [];
    this.#forms = undefined;
    this.#held = new Map();
    this.#resolved = false;
  }
}
