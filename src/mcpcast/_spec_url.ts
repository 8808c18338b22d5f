/**
 * Spec URLs and their public form. A spec URL may carry credentials (`user:pass@`, `?api_key=`): they
 * are used for the request only; everything recorded or printed uses the public form
 * `scheme://host[:port]/path`.
 *
 * @module
 */

/** Whether `source` is an `http://` or `https://` URL (scheme case-insensitive). */
export function looksLikeHttpUrl(source: string): boolean {
  return /^https?:\/\//i.test(source.trim());
}

/**
 * The public form of a URL: scheme, host, port and path, without userinfo, query or fragment.
 * Text that does not parse as a URL becomes `"<url>"`.
 *
 * @example
 * ```ts
 * publicUrl("https://bob:pw@api.example.com:8443/spec.json?api_key=k#x"); // "https://api.example.com:8443/spec.json"
 * ```
 */
export function publicUrl(url: string): string {
  try {
    const parsed = new URL(url.trim());
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return "<url>";
  }
}

/** `text` with every URL token in it reduced to its {@link publicUrl} form (for error messages). */
export function reduceUrls(text: string): string {
  return text.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s'"()<>[\]{}]+/gi, (token) => {
    const trailing = /[.,;:!?]+$/.exec(token)?.[0] ?? "";
    return publicUrl(token.slice(0, token.length - trailing.length)) + trailing;
  });
}

/** What to send for a spec URL: the URL without userinfo or fragment, and Basic auth from the userinfo. */
export interface SpecRequestTarget {
  /** URL to request (query kept, userinfo and fragment removed). */
  url: string;
  /** `Authorization` header value when the URL carried `user:pass@`. */
  authorization?: string;
  /** The public form, for labels and messages. */
  publicUrl: string;
}

/** Splits a spec URL into what is requested and what is shown. */
export function specRequestTarget(url: string): SpecRequestTarget {
  const parsed = new URL(url.trim());
  let authorization: string | undefined;
  if (parsed.username !== "" || parsed.password !== "") {
    const user = safeDecode(parsed.username);
    const password = safeDecode(parsed.password);
    const bytes = new TextEncoder().encode(`${user}:${password}`);
    authorization = `Basic ${btoa(String.fromCharCode(...bytes))}`;
  }
  parsed.username = "";
  parsed.password = "";
  parsed.hash = "";
  return { url: parsed.href, authorization, publicUrl: publicUrl(url) };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
