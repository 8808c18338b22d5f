/**
 * Checking a value against a cleaned JSON Schema (see `schema_clean.ts`) the way the generated server
 * does before a request leaves: Ajv (draft 2020-12) with the common string formats enforced, so an
 * agent learns "must match format uuid" here rather than from the upstream's generic 400.
 *
 * Formats checked: `uuid`, `date`, `time`, `date-time` (RFC 3339, offset required), `email`, `uri`
 * (absolute, no spaces), `hostname`, `ipv4`, `ipv6`. Any other format (`int32`, `binary`, …) is not
 * checked. A schema Ajv cannot compile checks nothing: a call is never refused because of mcpcast's
 * own limits.
 *
 * @module
 */

import { isIPv4, isIPv6 } from "node:net";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { JsonSchema } from "../types.ts";

/** Why a value does not fit a schema: where (a JSON pointer, `""` for the value itself) and the rule. */
export interface SchemaProblem {
  /** JSON pointer into the value (`/items/0/id`), `""` for the value itself. */
  path: string;
  /** The rule that failed (`must match format "uuid"`), never the value. */
  message: string;
}

type Check = (value: unknown) => SchemaProblem | undefined;

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d):([0-5]\d|60)(\.\d+)?(z|[+-]([01]\d|2[0-3]):?[0-5]\d)?$/i;
const UUID = /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)*$/;
const URI = /^[a-z][a-z0-9+.-]*:\S*$/i;
const HOSTNAME =
  /^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

function validDate(text: string): boolean {
  const match = DATE.exec(text);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > DAYS[month - 1]) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month !== 2 || day <= 28 || leap;
}

function validDateTime(text: string): boolean {
  const cut = text.search(/[t ]/i);
  if (cut !== 10) return false;
  const time = text.slice(11);
  return validDate(text.slice(0, 10)) && TIME.test(time) && /(z|[+-]\d\d:?\d\d)$/i.test(time);
}

/** The string formats checked, by name. */
export const FORMAT_CHECKS: Readonly<Record<string, (text: string) => boolean>> = {
  uuid: (text) => UUID.test(text),
  date: validDate,
  time: (text) => TIME.test(text),
  "date-time": validDateTime,
  email: (text) => EMAIL.test(text),
  uri: (text) => URI.test(text),
  hostname: (text) => HOSTNAME.test(text),
  ipv4: (text) => isIPv4(text),
  ipv6: (text) => isIPv6(text),
};

/** Most compiled schemas kept; the cache starts over when full. */
const CACHE_MAX = 4_096;
const cache = new Map<string, Check>();
let ajv: Ajv2020 | undefined;

function compile(schema: JsonSchema): Check {
  ajv ??= new Ajv2020({
    strict: false,
    allErrors: false,
    logger: false,
    validateFormats: true,
    formats: FORMAT_CHECKS,
  });
  let validate: ReturnType<Ajv2020["compile"]>;
  try {
    validate = ajv.compile(schema);
  } catch {
    return () => undefined;
  }
  return (value) => {
    if (validate(value)) return undefined;
    const error = validate.errors?.[0];
    return { path: error?.instancePath ?? "", message: error?.message ?? "is invalid" };
  };
}

/**
 * Why `value` does not fit `schema` (formats included), or undefined when it does. Compiled schemas
 * are cached by their JSON text.
 *
 * @example
 * ```ts
 * import { schemaProblem } from "./json_check.ts";
 * schemaProblem({ type: "string", format: "uuid" }, "not-a-uuid");
 * // { path: "", message: 'must match format "uuid"' }
 * ```
 */
export function schemaProblem(schema: JsonSchema, value: unknown): SchemaProblem | undefined {
  const key = JSON.stringify(schema);
  let check = cache.get(key);
  if (check === undefined) {
    if (cache.size >= CACHE_MAX) cache.clear();
    check = compile(schema);
    cache.set(key, check);
  }
  return check(value);
}
