/**
 * Local `$ref` resolution. Only `#/...` JSON pointers into the same document resolve; external and
 * dangling references are reported (not thrown) so one operation can be marked unsupported while the
 * rest of the spec survives.
 *
 * Rules: only a `$ref` whose value is a string is a reference; maps of named schemas (`properties`,
 * `patternProperties`, `definitions`, `$defs`) are walked value by value, so a property named `$ref`
 * is data; data keys (`example`, `examples`, `default`, `enum`, `const`) are copied untouched; keys
 * beside a `$ref` override the target's keys. Only reference hops count towards the recursion limit:
 * after {@link MAX_REF_HOPS} hops a further reference becomes `{type: "object"}`, which keeps
 * Pet → Category and terminates on circular schemas.
 *
 * Every call returns fresh objects: results share no structure with the document or each other.
 *
 * @module
 */

import { type ExternalDocuments, locateRef, shownRef } from "./ref_documents.ts";
import { reduceUrls } from "../_spec_url.ts";
import { isMapping, setOwn, type SpecMapping } from "../_spec_values.ts";

/** Reference hops followed before a further reference becomes `{type: "object"}`. */
export const MAX_REF_HOPS: number = 2;

/** Longest chain of references to a reference that {@link RefResolver.follow} walks. */
const MAX_FOLLOW = 16;

/** Keys whose values are data: copied untouched, never searched for references. */
export const DATA_KEYS: ReadonlySet<string> = new Set(["example", "examples", "default", "enum", "const"]);
/** Keys whose values map names to schemas: walked value by value (a name `$ref` is data). */
export const NAMED_MAPS: ReadonlySet<string> = new Set([
  "properties",
  "patternProperties",
  "definitions",
  "$defs",
]);

/** A reference that could not be resolved. */
export interface RefProblem {
  /** `external`: not a local `#/` pointer; `dangling`: a local pointer to nothing. */
  kind: "external" | "dangling";
  /** The reference as written (an external one made absolute, a file under the spec's directory relative). */
  ref: string;
  /** Why an enabled external reference was not followed (host not allowed, outside the directory, ...). */
  reason?: string;
}

/**
 * The message for a reference problem, URL credentials reduced: "external $ref '...' is not supported;
 * bundle ...", or "external $ref '...' is not followed: <reason>" for a refused external reference.
 */
export function refProblemMessage(problem: RefProblem): string {
  const ref = reduceUrls(problem.ref).slice(0, 200);
  if (problem.reason !== undefined) return `${problem.kind} $ref '${ref}' is not followed: ${problem.reason}`;
  return `${problem.kind} $ref '${ref}' is not supported; bundle the spec into one document`;
}

/** The `$ref` of a value when it is a reference (a mapping whose `$ref` is a string). */
export function refOf(value: unknown): string | undefined {
  if (!isMapping(value)) return undefined;
  const ref = value.$ref;
  return typeof ref === "string" ? ref : undefined;
}

/** The value a local JSON pointer (`#`, `#/a/b~1c/0`) names, or `undefined` for none or a non-local ref. */
export function resolvePointer(document: SpecMapping, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  if (ref === "#" || ref === "#/") return ref === "#" ? document : document[""];
  if (!ref.startsWith("#/")) return undefined;
  const direct = walkPointer(document, ref.slice(2));
  if (direct !== undefined || !ref.includes("%")) return direct;
  try {
    return walkPointer(document, decodeURIComponent(ref.slice(2)));
  } catch {
    return undefined;
  }
}

function walkPointer(document: SpecMapping, pointer: string): unknown {
  let node: unknown = document;
  for (const raw of pointer.split("/")) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      node = node[Number(token)];
    } else if (isMapping(node) && Object.hasOwn(node, token)) {
      node = node[token];
    } else {
      return undefined;
    }
  }
  return node;
}

/** A value with its references resolved, and the references that could not be. */
export interface Resolved {
  /** The resolved value (fresh objects). */
  value: unknown;
  /** Unresolvable references met on the way, in order. */
  problems: RefProblem[];
}

/**
 * Resolves references against one document and, when given, the external documents loaded for it
 * (references inside those are absolute, so hops across documents share the one hop limit).
 */
export class RefResolver {
  #document: SpecMapping;
  #external: ExternalDocuments | undefined;

  /** A resolver for `document`; `external` enables references into other documents. */
  constructor(document: SpecMapping, external?: ExternalDocuments) {
    this.#document = document;
    this.#external = external;
  }

  /** `value` (typically a schema) with every reference resolved under the hop limit. */
  resolve(value: unknown): Resolved {
    const problems: RefProblem[] = [];
    return { value: this.#walk(value, 0, problems), problems };
  }

  /**
   * Follows the reference chain of a structural object (parameter, request body, response, path item)
   * without resolving inside it; keys beside a `$ref` override the target's. Such hops do not count
   * towards the schema hop limit.
   */
  follow(value: unknown): { value: unknown; problem?: RefProblem } {
    let current = value;
    for (let i = 0; i < MAX_FOLLOW; i++) {
      const ref = refOf(current);
      if (ref === undefined) return { value: current };
      const { target, problem } = this.#target(ref);
      if (problem !== undefined) return { value: undefined, problem };
      current = mergeSiblings(target, current as SpecMapping);
    }
    return { value: { type: "object" } };
  }

  #walk(value: unknown, hops: number, problems: RefProblem[]): unknown {
    if (Array.isArray(value)) return value.map((item) => this.#walk(item, hops, problems));
    if (!isMapping(value)) return value;
    const ref = value.$ref;
    if (typeof ref === "string") return this.#reference(value, ref, hops, problems);
    return this.#mapping(value, hops, problems);
  }

  #reference(node: SpecMapping, ref: string, hops: number, problems: RefProblem[]): unknown {
    const { $ref: _, ...siblings } = node;
    const extra = this.#mapping(siblings, hops, problems) as SpecMapping;
    if (hops >= MAX_REF_HOPS) return { type: "object", ...extra };
    const { target, problem } = this.#target(ref);
    if (problem !== undefined) {
      problems.push(problem);
      return { ...extra };
    }
    const resolved = this.#walk(target, hops + 1, problems);
    if (!isMapping(resolved)) return Object.keys(extra).length === 0 ? resolved : extra;
    return { ...resolved, ...extra };
  }

  #target(ref: string): { target?: unknown; problem?: RefProblem } {
    if (ref.startsWith("#") || this.#external === undefined) {
      const target = resolvePointer(this.#document, ref);
      return target === undefined ? { problem: problemOf(ref) } : { target };
    }
    const shown = shownRef(ref, this.#external);
    const found = locateRef(ref, this.#external);
    if (!("document" in found)) {
      return { problem: { kind: "external", ref: shown, ...(found.reason ? { reason: found.reason } : {}) } };
    }
    const target = resolvePointer(found.document, found.pointer);
    return target === undefined ? { problem: { kind: "dangling", ref: shown } } : { target };
  }

  #mapping(node: SpecMapping, hops: number, problems: RefProblem[]): SpecMapping {
    const out: SpecMapping = {};
    for (const key of Object.keys(node)) {
      const value = node[key];
      let resolved: unknown;
      if (DATA_KEYS.has(key)) {
        resolved = cloneData(value);
      } else if (NAMED_MAPS.has(key) && isMapping(value)) {
        const named: SpecMapping = {};
        for (const name of Object.keys(value)) setOwn(named, name, this.#walk(value[name], hops, problems));
        resolved = named;
      } else {
        resolved = this.#walk(value, hops, problems);
      }
      setOwn(out, key, resolved);
    }
    return out;
  }
}

function problemOf(ref: string): RefProblem {
  return { kind: ref.startsWith("#") ? "dangling" : "external", ref };
}

function mergeSiblings(target: unknown, node: SpecMapping): unknown {
  const { $ref: _, ...siblings } = node;
  if (Object.keys(siblings).length === 0) return target;
  return isMapping(target) ? { ...target, ...siblings } : siblings;
}

/** A deep copy of plain data (mappings, lists, scalars); references inside are not resolved. */
export function cloneData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneData);
  if (!isMapping(value)) return value;
  const out: SpecMapping = {};
  for (const key of Object.keys(value)) setOwn(out, key, cloneData(value[key]));
  return out;
}
