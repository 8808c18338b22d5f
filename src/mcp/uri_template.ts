/**
 * Resource URI templates: `{name}` matches one path segment, `{name*}` and `{+name}` match the rest
 * of the URI including `/`.
 *
 * @module
 */

/** A compiled template. */
export interface UriTemplate {
  /** The template text. */
  readonly template: string;
  /** Variable names in order. */
  readonly variables: readonly string[];
  /** The variables of `uri`, or undefined when it does not match. */
  match(uri: string): Record<string, string> | undefined;
}

const VARIABLE = /\{(\+?)([A-Za-z_][A-Za-z0-9_]*)(\*?)\}/g;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Compiles `template`; throws TypeError on a malformed or duplicate variable. */
export function compileUriTemplate(template: string): UriTemplate {
  const variables: string[] = [];
  let pattern = "^";
  let last = 0;
  for (const match of template.matchAll(VARIABLE)) {
    const [whole, plus, name, star] = match;
    if (variables.includes(name)) throw new TypeError(`uri template '${template}' repeats {${name}}`);
    variables.push(name);
    pattern += escapeRegExp(template.slice(last, match.index));
    pattern += plus || star ? "(.+)" : "([^/]+)";
    last = match.index + whole.length;
  }
  const rest = template.slice(last);
  if (/[{}]/.test(rest) || /[{}]/.test(template.replace(VARIABLE, ""))) {
    throw new TypeError(`uri template '${template}' has a malformed variable`);
  }
  pattern += escapeRegExp(rest) + "$";
  const regexp = new RegExp(pattern);
  return {
    template,
    variables,
    match(uri) {
      const found = regexp.exec(uri);
      if (!found) return undefined;
      const params: Record<string, string> = {};
      variables.forEach((name, index) => {
        const raw = found[index + 1];
        try {
          params[name] = decodeURIComponent(raw);
        } catch {
          params[name] = raw;
        }
      });
      return params;
    },
  };
}
