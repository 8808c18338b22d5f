/**
 * Small readers for untyped spec values: is it a mapping, what kind is it, read a string field.
 *
 * @module
 */

/** A spec mapping (a plain object). */
export type SpecMapping = Record<string, unknown>;

/** Whether `value` is a plain object (a YAML/JSON mapping), not a list, null or a class instance. */
export function isMapping(value: unknown): value is SpecMapping {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The kind of a spec value for messages: mapping, list, string, number, boolean, null or missing. */
export function kindOf(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "list";
  if (isMapping(value)) return "mapping";
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
    return typeof value;
  }
  return "object";
}

/** `mapping[key]` when it is a string with something other than spaces in it, trimmed. */
export function trimmedString(mapping: SpecMapping, key: string): string | undefined {
  const value = mapping[key];
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}

/**
 * Sets `key` on `target` as an own, enumerable property, `__proto__` included (plain assignment of that
 * key would set the prototype instead).
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key !== "__proto__") target[key] = value;
  else Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
