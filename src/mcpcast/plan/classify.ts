/**
 * Deterministic risk classification over an operation's id, path and summary (never the free-form
 * description). Base rules, first match wins: a safe method is a read; DELETE is destructive; a
 * {@linkcode DESTRUCTIVE_WORDS} word makes it destructive, a {@linkcode FINANCIAL_WORDS} word
 * financial; a POST led by a {@linkcode QUERY_WORDS} word that names no {@linkcode MUTATING_WORDS}
 * word is a read; anything else a write. Each escalation signal then moves it one step up (read →
 * write → destructive; destructive and financial stay): a safe method naming a destructive word, a
 * scope containing admin/root/superuser, a {@linkcode SENSITIVE_PATH_WORDS} path token, deprecation.
 *
 * @example
 * ```ts
 * import { classify } from "./classify.ts";
 * const c = classify({ operationId: "searchPets", method: "POST", path: "/pets/search", scopes: [], deprecated: false });
 * // c.risk === "read", c.reasons[0] === "POST that only queries ('search')"
 * ```
 *
 * @module
 */

import type { HttpMethod, Operation, RiskClass } from "../types.ts";

/** Words that make a non-safe operation destructive (and escalate a safe one, matched exactly). */
export const DESTRUCTIVE_WORDS: readonly string[] = Object.freeze(
  "delete remove purge revoke terminate cancel deactivate destroy erase wipe reset".split(" "),
);

/** Words that make a non-safe operation financial. */
export const FINANCIAL_WORDS: readonly string[] = Object.freeze(
  "charge payment pay refund invoice transfer payout subscription billing checkout purchase withdraw deposit"
    .split(" "),
);

/**
 * Words that, leading a POST, make it a read when nothing mutates. "graphql" is deliberately absent:
 * a GraphQL endpoint takes mutations as readily as queries.
 */
export const QUERY_WORDS: readonly string[] = Object.freeze(
  "search query find lookup list fetch preview validate calculate estimate".split(" "),
);

/** Words that keep a POST a write even when a query word leads it (`createWithList`). */
export const MUTATING_WORDS: readonly string[] = Object.freeze(
  ("create add new update edit modify set save upload import register submit send finalize confirm " +
    "capture activate archive accept complete verify apply invite redeliver ping generate assign attach " +
    "publish execute run trigger start stop restart move rename replace merge sync approve reject enable " +
    "disable login logout").split(" "),
);

/** Path tokens that escalate an operation (matched exactly, or with a plural "s"). */
export const SENSITIVE_PATH_WORDS: readonly string[] = Object.freeze(
  "admin internal sudo impersonate".split(" "),
);

/** The outcome of classifying one operation, with its reasoning. */
export interface Classification {
  /** The class after escalation. */
  risk: RiskClass;
  /** The class from the base rules, before escalation. */
  base: RiskClass;
  /** The base rule's reason first, then one reason per escalation, e.g. "escalated: deprecated". */
  reasons: string[];
}

/** The fields of an operation that classification reads. */
export type ClassifiedOperation = Pick<
  Operation,
  "operationId" | "method" | "path" | "summary" | "scopes" | "deprecated"
>;

const SAFE_METHODS: ReadonlySet<HttpMethod> = new Set(["GET", "HEAD", "OPTIONS", "TRACE"]);
const HTTP_VERB_TOKENS: ReadonlySet<string> = new Set("get post put patch delete head options".split(" "));
const ESCALATING_SCOPE_MARKERS = ["admin", "root", "superuser"] as const;
const ESCALATION: Readonly<Record<RiskClass, RiskClass>> = {
  read: "write",
  write: "destructive",
  destructive: "destructive",
  financial: "financial",
};

/**
 * Lower-case word tokens of an id, path or sentence. Splits camelCase (`cancelSubscription`), acronym
 * (`HTMLParser` → html, parser; a plural acronym stays whole: `IDs` → ids) and letter/digit (`oauth2`
 * → oauth, 2) boundaries, then on everything outside `[a-z0-9]`. The original split only before an
 * upper-case letter, so `HTMLParser` stayed one token; acronym and digit splits are the intent.
 */
export function tokens(text: string): string[] {
  const spaced = !/[A-Z0-9]/.test(text) ? text : text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z](?!s(?![a-z]))[a-z])/g, "$1 $2")
    .replace(/([A-Za-z])([0-9])/g, "$1 $2")
    .replace(/([0-9])([A-Za-z])/g, "$1 $2");
  return spaced.toLowerCase().split(/[^a-z0-9]+/).filter((token) => token !== "");
}

/** A word list compiled for matching: exact forms (`word`, `word`+"s") and the prefix-capable words. */
interface WordList {
  words: readonly string[];
  exact: ReadonlyMap<string, number>;
  long: readonly number[];
}

function compile(words: readonly string[]): WordList {
  const exact = new Map<string, number>();
  words.forEach((word, i) => {
    for (const form of [word, `${word}s`]) if (!exact.has(form)) exact.set(form, i);
  });
  return { words, exact, long: words.flatMap((word, i) => (word.length >= 5 ? [i] : [])) };
}

const DESTRUCTIVE = compile(DESTRUCTIVE_WORDS);
const FINANCIAL = compile(FINANCIAL_WORDS);
const QUERY = compile(QUERY_WORDS);
const MUTATING = compile(MUTATING_WORDS);
const SENSITIVE = compile(SENSITIVE_PATH_WORDS);

/**
 * The word matched by the first token that matches the list, the earliest word in list order when a
 * token matches several. A token matches a word it equals, or equals plus "s"; unless `exact`, a word
 * of 5+ letters also matches as a prefix (cancel → cancellation), a shorter one never (pay ≠ payload).
 */
function find(list: WordList, toks: readonly string[], exact = false): string | undefined {
  // Indexed loops: this runs for every token of every operation, and iterators would allocate.
  for (let t = 0; t < toks.length; t++) {
    const token = toks[t];
    let best = list.exact.get(token) ?? -1;
    if (!exact) {
      for (let l = 0; l < list.long.length; l++) {
        const i = list.long[l];
        if (best !== -1 && i >= best) break;
        if (token.startsWith(list.words[i])) {
          best = i;
          break;
        }
      }
    }
    if (best !== -1) return list.words[best];
  }
  return undefined;
}

/** An operation's tokens by source; `all` is the signal text (id, path, summary — never the description). */
interface Signal {
  id: string[];
  path: string[];
  summary: string[];
  all: string[];
}

function signalOf(op: ClassifiedOperation): Signal {
  const id = tokens(op.operationId), path = tokens(op.path), summary = tokens(op.summary ?? "");
  return { id, path, summary, all: [...id, ...path, ...summary] };
}

/** The first token after one leading HTTP verb (generated ids: `post_search` → search), if any. */
function leadingToken(toks: readonly string[]): string[] {
  return toks.slice(HTTP_VERB_TOKENS.has(toks[0]) ? 1 : 0).slice(0, 1);
}

/** The query word leading the operation (id, summary, last literal path segment), if nothing mutates. */
function querySignal(op: ClassifiedOperation, signal: Signal): string | undefined {
  if (find(MUTATING, signal.all) !== undefined) return undefined;
  const leading = [...leadingToken(signal.id), ...leadingToken(signal.summary)];
  const trimmed = op.path.replace(/\/+$/, "");
  const last = trimmed.slice(trimmed.lastIndexOf("/") + 1);
  if (!last.startsWith("{")) leading.push(...tokens(last));
  return find(QUERY, leading, true);
}

/** Rules 1–6: the class before escalation, with its reason. */
function baseClass(op: ClassifiedOperation, signal: Signal): [RiskClass, string] {
  const method = op.method;
  if (SAFE_METHODS.has(method)) return ["read", `${method} is a read`];
  if (method === "DELETE") return ["destructive", "DELETE is destructive"];
  const destructive = find(DESTRUCTIVE, signal.all);
  if (destructive !== undefined) return ["destructive", `mentions destructive verb '${destructive}'`];
  const money = find(FINANCIAL, signal.all);
  if (money !== undefined) return ["financial", `mentions money ('${money}')`];
  if (method === "POST") {
    const query = querySignal(op, signal);
    if (query !== undefined) return ["read", `POST that only queries ('${query}')`];
  }
  return ["write", `${method} is a write`];
}

/** `base` moved one step up per escalation signal, with one reason per step. */
function escalated(op: ClassifiedOperation, base: RiskClass, signal: Signal): [RiskClass, string[]] {
  let risk = base;
  const reasons: string[] = [];
  if (SAFE_METHODS.has(op.method)) {
    // A GET that says it deletes is a legacy side-effecting read; money nouns on a GET are not.
    const hit = find(DESTRUCTIVE, signal.all, true);
    if (hit !== undefined) {
      risk = ESCALATION[risk];
      reasons.push(`escalated: ${op.method} that appears to mutate ('${hit}')`);
    }
  }
  // Only privilege markers escalate: a `write:` scope on a read is a spec artefact.
  const scope = op.scopes.find((s) => ESCALATING_SCOPE_MARKERS.some((m) => s.toLowerCase().includes(m)));
  if (scope !== undefined) {
    risk = ESCALATION[risk];
    reasons.push(`escalated: requires scope '${scope}'`);
  }
  // The whole path is tokenised, placeholder names included (`{admin_id}` matches), as specified.
  const pathHit = find(SENSITIVE, signal.path, true);
  if (pathHit !== undefined) {
    risk = ESCALATION[risk];
    reasons.push(`escalated: path is ${pathHit}-only`);
  }
  if (op.deprecated) {
    risk = ESCALATION[risk];
    reasons.push("escalated: deprecated");
  }
  return [risk, reasons];
}

/**
 * Classifies an operation and explains the decision.
 *
 * @example
 * ```ts
 * import { classify } from "./classify.ts";
 * const c = classify({ operationId: "listReports", method: "GET", path: "/reports", scopes: ["admin:read"], deprecated: false });
 * // { risk: "write", base: "read", reasons: ["GET is a read", "escalated: requires scope 'admin:read'"] }
 * ```
 */
export function classify(op: ClassifiedOperation): Classification {
  const signal = signalOf(op);
  const [base, why] = baseClass(op, signal);
  const [risk, escalations] = escalated(op, base, signal);
  return { risk, base, reasons: [why, ...escalations] };
}

/**
 * The lowest class {@linkcode classify} could give an operation with this wire mapping, which is all
 * a plan records (no summary, scopes or deprecation). Text the plan lacks can only add tokens, so
 * every raising rule still applies; the one lowering rule (a query-led POST) may have been met by a
 * summary, so a POST whose id and path name no mutating word is floored at read. A plan may raise a
 * tool's risk above this floor, never lower it below.
 *
 * @example
 * ```ts
 * import { riskFloor } from "./classify.ts";
 * riskFloor("deletePet", "DELETE", "/pets/{id}"); // "destructive"
 * riskFloor("doThing", "POST", "/things"); // "read"
 * ```
 */
export function riskFloor(operationId: string, method: HttpMethod, path: string): RiskClass {
  const bare: ClassifiedOperation = { operationId, method, path, scopes: [], deprecated: false };
  const signal = signalOf(bare);
  let [base] = baseClass(bare, signal);
  if (base === "write" && method === "POST" && find(MUTATING, signal.all) === undefined) base = "read";
  return escalated(bare, base, signal)[0];
}
