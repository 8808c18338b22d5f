/**
 * SecretsConfig: named secrets scoped to a process, given literally or as `${VAR}` references.
 *
 * @module
 */

import { z } from "zod";
import { boolean, number, OR_NULL, pattern, type Resolved, strictObject, string } from "./_fields.ts";
import { exactly } from "../../_util/schema_proof.ts";

/** The `secrets` section as written. Every field is optional. */
export interface SecretsConfigInput {
  /**
   * Turns secret scoping on: the process gets these secrets at start and loses them when it stops.
   * @default false
   */
  enabled?: boolean;
  /**
   * Secret values by name. A value is a literal or a `${VAR}` reference resolved from the host
   * environment at start. A name is a letter or `_`, then up to 63 letters, digits or `_`.
   * @default {}
   */
  secrets?: Record<string, string>;
  /**
   * Seconds a secret stays readable after start. A number > 0, or null for no expiry.
   * @default null
   */
  default_ttl?: number | null;
  /**
   * Lifetime in seconds of single secrets, overriding `default_ttl`. Each name must be listed in
   * `secrets`; each value is a number > 0.
   * @default {}
   */
  ttls?: Record<string, number>;
  /**
   * Wipe the secret values when the process stops; they are resolved again at the next start.
   * @default true
   */
  revoke_on_stop?: boolean;
}

/** The `secrets` section with every default filled. Values may still hold `${VAR}` references. */
export type SecretsConfig = Resolved<SecretsConfigInput>;

/** Rule for secret names. */
export const SECRET_NAME_PATTERN: RegExp = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

const SECRET_NAME = pattern(
  SECRET_NAME_PATTERN,
  "a secret name: a letter or _, then up to 63 letters, digits or _",
);

/** Secret scoping settings. TTLs are seconds; each `ttls` name must be a configured secret. */
export const SecretsConfigSchema: z.ZodType<SecretsConfig, SecretsConfigInput> = exactly(
  strictObject({
    enabled: boolean().default(false),
    secrets: z.record(SECRET_NAME, string("a string value or a ${VAR} reference"), {
      error: "an object mapping secret names to values",
    }).default(() => ({})),
    default_ttl: number({ gt: 0 }, OR_NULL).nullable().default(null),
    ttls: z.record(SECRET_NAME, number({ gt: 0 }), { error: "an object mapping secret names to seconds" })
      .default(() => ({})),
    revoke_on_stop: boolean().default(true),
  }).superRefine((config, ctx) => {
    for (const name of Object.keys(config.ttls)) {
      if (!Object.hasOwn(config.secrets, name)) {
        ctx.addIssue({
          code: "custom",
          path: ["ttls", name],
          message: "the name of a secret listed in secrets",
        });
      }
    }
  }),
);
