/**
 * Security schemes and each operation's effective scheme, credential slot and scopes.
 *
 * @module
 */

import type { RefResolver } from "./refs.ts";
import type { CredentialSlot, SecurityScheme, SecuritySchemeType } from "../types.ts";
import { isMapping, type SpecMapping } from "../_spec_values.ts";

const SCHEME_TYPES: Readonly<Record<string, SecuritySchemeType>> = {
  apikey: "apiKey",
  http: "http",
  oauth2: "oauth2",
  openidconnect: "openIdConnect",
  mutualtls: "mutualTLS",
  basic: "basic",
};

const API_KEY_PLACES: ReadonlySet<string> = new Set(["header", "query", "cookie"]);

/**
 * The security schemes of `components.securitySchemes` (OpenAPI 3) and `securityDefinitions`
 * (Swagger 2), by id; types are case-normalised, and entries that do not resolve to a mapping of a
 * known type are skipped.
 */
export function securitySchemesOf(
  document: SpecMapping,
  resolver: RefResolver,
): Record<string, SecurityScheme> {
  const components = isMapping(document.components) ? document.components : {};
  const sources = [document.securityDefinitions, components.securitySchemes].filter(isMapping);
  const schemes: Record<string, SecurityScheme> = {};
  for (const source of sources) {
    for (const id of Object.keys(source)) {
      const entry = resolver.follow(source[id]).value;
      if (!isMapping(entry) || typeof entry.type !== "string") continue;
      const type = SCHEME_TYPES[entry.type.toLowerCase()];
      if (type === undefined) continue;
      const scheme: SecurityScheme = { id, type };
      if (type === "apiKey") {
        const place = typeof entry.in === "string" ? entry.in.toLowerCase() : "";
        if (API_KEY_PLACES.has(place)) scheme.in = place as SecurityScheme["in"];
        if (typeof entry.name === "string" && entry.name.trim() !== "") scheme.paramName = entry.name.trim();
      }
      if (type === "http" && typeof entry.scheme === "string") scheme.scheme = entry.scheme.toLowerCase();
      Object.defineProperty(schemes, id, {
        value: scheme,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return schemes;
}

/**
 * Where the generated server can present a credential for `scheme`: an apiKey in a header or query
 * parameter → that slot; http, basic, oauth2 and openIdConnect → the Authorization header; an apiKey
 * in a cookie and mutualTLS → none.
 */
export function credentialSlotFor(scheme: SecurityScheme): CredentialSlot | undefined {
  switch (scheme.type) {
    case "apiKey":
      if ((scheme.in === "header" || scheme.in === "query") && scheme.paramName !== undefined) {
        return { location: scheme.in, name: scheme.paramName };
      }
      return undefined;
    case "http":
    case "basic":
    case "oauth2":
    case "openIdConnect":
      return { location: "header", name: "Authorization" };
    default:
      return undefined;
  }
}

/** An operation's effective security. */
export interface OperationSecurity {
  /** The effective scheme, if any resolves. */
  scheme?: SecurityScheme;
  /** Its credential slot, when the server can present it. */
  credentialSlot?: CredentialSlot;
  /** Sorted union of the scopes of every requirement (a scheme without scopes contributes its id). */
  scopes: string[];
  /** Each requirement's scheme ids, in spec order; absent when `requirements` is not a list. */
  requirements?: string[][];
}

/**
 * The effective security of an operation whose requirement list is `requirements` (the operation's
 * `security`, else the document's): the first alternative made of exactly one scheme the server can
 * present, else the first scheme named that resolves.
 */
export function operationSecurity(
  requirements: unknown,
  schemes: Readonly<Record<string, SecurityScheme>>,
): OperationSecurity {
  if (!Array.isArray(requirements)) return { scopes: [] };
  const alternatives = requirements.filter(isMapping);
  const known = (id: string) => Object.hasOwn(schemes, id) ? schemes[id] : undefined;
  let scheme: SecurityScheme | undefined;
  for (const alternative of alternatives) {
    const ids = Object.keys(alternative);
    const only = ids.length === 1 ? known(ids[0]) : undefined;
    if (only !== undefined && credentialSlotFor(only) !== undefined) {
      scheme = only;
      break;
    }
  }
  scheme ??= alternatives.flatMap((alternative) => Object.keys(alternative)).map(known).find((s) => s);
  const scopes = new Set<string>();
  for (const alternative of alternatives) {
    for (const id of Object.keys(alternative)) {
      const listed = alternative[id];
      const named = Array.isArray(listed) ? listed.filter((s): s is string => typeof s === "string") : [];
      if (named.length === 0) scopes.add(id);
      for (const scope of named) scopes.add(scope);
    }
  }
  const credentialSlot = scheme === undefined ? undefined : credentialSlotFor(scheme);
  const ids = alternatives.map((alternative) => Object.keys(alternative));
  return { scheme, credentialSlot, scopes: [...scopes].sort(), requirements: ids };
}
