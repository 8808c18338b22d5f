/**
 * The unknown-option check of the option objects the MCP framework takes. Each caller lists its keys
 * as `{ ... } satisfies Record<keyof XOptions, true>`, so an option added to `XOptions` and not to
 * the list (or listed and not declared) fails `deno check`.
 *
 * @module
 */

/** How a caller's refusals read; each caller keeps the wording its messages have always had. */
export interface OptionKeysWording {
  /**
   * The unknown-key message: `"bare"` is `owner: unknown option 'k'`, `"listed"` adds
   * ` (allowed: a, b)`, `"quoted"` is `owner: unknown option "k"; allowed: a, b`.
   * @default "bare"
   */
  unknown?: "bare" | "listed" | "quoted";
  /**
   * Refuse an `options` that is not an object (null, a primitive, and an array unless `arrays`) with a
   * TypeError: `true` words it `owner: options must be an object`, a string is the whole message.
   * Without it only the keys are checked.
   */
  notObject?: true | string;
  /** Let an array pass the object check (its indexes are then checked as keys). @default false */
  arrays?: boolean;
}

/** What {@linkcode checkOptionKeys} checks `options` against, and how its refusals read. */
export interface OptionKeysCheck<T extends object> extends OptionKeysWording {
  /** Names the factory or class in the message, e.g. `rateLimitMiddleware`. */
  owner: string;
  /** Every option `T` declares, written `{ ... } satisfies Record<keyof T, true>`. */
  keys: Record<keyof T, true>;
}

/**
 * Throws a `TypeError` naming the first key of `options` that is not in `check.keys`.
 *
 * @example
 * ```ts
 * import { checkOptionKeys } from "./option_keys.ts";
 * interface GreetOptions {
 *   name?: string;
 *   loud?: boolean;
 * }
 * const GREET_KEYS = { name: true, loud: true } satisfies Record<keyof GreetOptions, true>;
 * function greet(options: GreetOptions = {}): string {
 *   checkOptionKeys(options, { owner: "greet", keys: GREET_KEYS });
 *   return `Hello, ${options.name ?? "you"}${options.loud ? "!" : "."}`;
 * }
 * greet({ name: "Ada" });
 * ```
 */
export function checkOptionKeys<T extends object>(options: T, check: OptionKeysCheck<T>): void {
  const { owner, keys, unknown = "bare", notObject, arrays = false } = check;
  if (
    notObject !== undefined &&
    (typeof options !== "object" || options === null || (!arrays && Array.isArray(options)))
  ) {
    throw new TypeError(notObject === true ? `${owner}: options must be an object` : notObject);
  }
  for (const key of Object.keys(options)) {
    if (Object.hasOwn(keys, key)) continue;
    const allowed = Object.keys(keys).join(", ");
    if (unknown === "listed") throw new TypeError(`${owner}: unknown option '${key}' (allowed: ${allowed})`);
    if (unknown === "quoted") throw new TypeError(`${owner}: unknown option "${key}"; allowed: ${allowed}`);
    throw new TypeError(`${owner}: unknown option '${key}'`);
  }
}
