/**
 * The documents a {@link RefResolver} may follow references into when external references are
 * enabled: every document keyed by its absolute URL, so that a reference is an absolute URL plus a
 * JSON pointer. Loading them is `external_refs.ts`'s job; this file only looks them up.
 *
 * @module
 */

import type { SpecMapping } from "../_spec_values.ts";

/** Loaded external documents and the ones refused, for a resolver. */
export interface ExternalDocuments {
  /** Absolute URL of the root document (`file:` or `http(s):`); `undefined` for inline or object specs. */
  rootUrl?: string;
  /** Documents by {@link documentKey}, the root included when it has a URL. */
  documents: ReadonlyMap<string, SpecMapping>;
  /** Why a document was not loaded, by {@link documentKey}; the reason names no credentials. */
  refused: ReadonlyMap<string, string>;
}

/** Where a reference points: a document and a local pointer (`#`, `#/a/b`). */
export interface LocatedRef {
  /** The document holding the target. */
  document: SpecMapping;
  /** The pointer inside it. */
  pointer: string;
}

/** The key of a document URL: the URL without userinfo and fragment (the query is kept). */
export function documentKey(url: URL): string {
  const copy = new URL(url.href);
  copy.username = "";
  copy.password = "";
  copy.hash = "";
  return copy.href;
}

/**
 * The document and pointer an external reference (`other.yaml#/X`, `https://h/x.json#/X`) names,
 * resolved against the root document's URL; otherwise the reason it was refused, if there is one.
 */
export function locateRef(ref: string, external: ExternalDocuments): LocatedRef | { reason?: string } {
  let url: URL;
  try {
    url = new URL(ref, external.rootUrl);
  } catch {
    return {};
  }
  const key = documentKey(url);
  const document = external.documents.get(key);
  if (document === undefined) {
    const reason = external.refused.get(key);
    return reason === undefined ? {} : { reason };
  }
  return { document, pointer: url.hash === "" ? "#" : url.hash };
}

/** `ref` for messages: a `file:` URL under the root document's directory as a relative path. */
export function shownRef(ref: string, external: ExternalDocuments | undefined): string {
  const root = external?.rootUrl;
  if (root === undefined || !root.startsWith("file:") || !ref.startsWith("file:")) return ref;
  const base = new URL(".", root).href;
  return ref.startsWith(base) ? ref.slice(base.length) : ref;
}
