/**
 * A configured credential turned into what travels upstream for one security scheme: a bare token
 * gets `Bearer ` (bearer, OAuth 2, OpenID Connect), `user:password` becomes `Basic <base64>` (basic),
 * another http scheme gets its word; a value that already starts with a scheme word is sent as it is;
 * an API key is sent as it is.
 *
 * @module
 */

import type { SchemePlan } from "../plan/mod.ts";

/** `Bearer abc`, `token abc`: a scheme word, whitespace, then the credential. */
const SCHEME_WORD = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)\s+\S/;

/** The Authorization scheme word `value` starts with, lower-cased, if any. */
export function schemeWordOf(value: string): string | undefined {
  return SCHEME_WORD.exec(value)?.[1].toLowerCase();
}

/** The scheme word `scheme` expects in the Authorization header, lower-cased (undefined: api key). */
export function expectedWord(scheme: SchemePlan): string | undefined {
  if (scheme.type === "bearer") return "bearer";
  if (scheme.type === "basic") return "basic";
  if (scheme.type === "http") return scheme.http_scheme?.toLowerCase();
  return undefined;
}

/** What `value` (trimmed, printable) becomes for `scheme`, or why it does not fit. */
export function schemeValue(scheme: SchemePlan, value: string): { value: string } | { problem: string } {
  const expected = expectedWord(scheme);
  if (expected === undefined) return { value };
  const word = schemeWordOf(value);
  if (word !== undefined) {
    return word === expected
      ? { value }
      : { problem: `carries a '${word}' credential where '${expected}' is expected` };
  }
  if (scheme.type === "basic") {
    if (!value.includes(":")) return { problem: "must be user:password (or a ready 'Basic <base64>')" };
    return { value: `Basic ${btoa(value)}` };
  }
  const prefix = scheme.type === "bearer" ? "Bearer" : scheme.http_scheme!;
  return { value: `${prefix} ${value}` };
}

/** The Authorization value for a plan without schemes: a bare token gets `Bearer `. */
export function plainAuthorization(value: string): string {
  return schemeWordOf(value) === undefined ? `Bearer ${value}` : value;
}

/** `MCPCAST_UPSTREAM_TOKEN_<ID>`: the scheme id upper-cased, anything but letters and digits as `_`. */
export function schemeVariable(id: string): string {
  return `MCPCAST_UPSTREAM_TOKEN_${id.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;
}

/** What to put in a variable for `scheme`, for READMEs and messages. */
export function schemeHint(scheme: SchemePlan): string {
  switch (scheme.type) {
    case "bearer":
      return "the bare token (the server sends `Authorization: Bearer <token>`; a value that already starts with `Bearer ` is sent as it is)";
    case "basic":
      return "`user:password` (the server sends `Authorization: Basic <base64>`), or a ready `Basic <base64>` value";
    case "http":
      return `the bare credential (the server sends \`Authorization: ${scheme.http_scheme} <credential>\`)`;
    case "api_key":
      return `the API key itself, sent as it is in ${
        scheme.in === "query" ? "query parameter" : scheme.in
      } \`${scheme.name}\``;
  }
}

/** A placeholder value for `scheme`: `<token>`, `<user>:<password>`, `<credential>`, `<api key>`. */
export function schemeExample(scheme: SchemePlan): string {
  if (scheme.type === "bearer") return "<token>";
  if (scheme.type === "basic") return "<user>:<password>";
  if (scheme.type === "http") return "<credential>";
  return "<api key>";
}
