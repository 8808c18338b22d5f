/**
 * Checks the relative links of the project's markdown (part of `deno task ok`): every link in README.md,
 * docs/, bench/README.md and any other markdown file of the project must name an existing file or folder,
 * and a `#fragment` (same page or another page) must match a heading's GitHub-style anchor.
 *
 * Skipped: links with a scheme (`https:`, `mailto:`), code blocks and code spans, dot folders,
 * `node_modules/`, `tests/fixtures/`, and folders holding their own `deno.json` (other projects, such as a
 * generated MCP server).
 *
 * ```sh
 * deno run --allow-read scripts/check_links.ts
 * ```
 *
 * @module
 */

import { dirname, join, normalize, resolve } from "node:path";

/** A link found in a markdown page. */
export interface MarkdownLink {
  /** 1-based line of the link. */
  line: number;
  /** The link target as written, such as `docs/mcp.md#middleware`. */
  target: string;
}

/** A link that does not resolve. */
export interface LinkProblem {
  /** The page holding the link, relative to the project root. */
  file: string;
  /** 1-based line of the link. */
  line: number;
  /** The link target as written. */
  target: string;
  /** Why it does not resolve. */
  reason: string;
}

/** How {@linkcode checkPage} sees the project: paths are relative to the project root. */
export interface LinkSources {
  /** Whether a file or folder exists. */
  exists(path: string): boolean;
  /** The text of a markdown page, or undefined when it cannot be read. */
  readPage(path: string): string | undefined;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const INLINE_LINK = /!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+"[^"]*")?\s*\)/g;
const REFERENCE = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const HTML_ANCHOR = /<a\s+(?:id|name)="([^"]+)"/g;

/** The lines of `markdown` outside fenced code blocks, with code spans blanked, keyed by 1-based line. */
function proseLines(markdown: string): Array<[number, string]> {
  const lines: Array<[number, string]> = [];
  let fence: string | undefined;
  markdown.split("\n").forEach((text, index) => {
    const marker = FENCE.exec(text)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      return;
    }
    if (marker) {
      fence = marker;
      return;
    }
    lines.push([index + 1, text]);
  });
  return lines;
}

/** The anchor GitHub gives a heading: its text in lower case, punctuation dropped, spaces as hyphens. */
export function githubSlug(heading: string): string {
  const text = heading
    .split(/(`[^`]*`)/)
    .map((part, index) =>
      index % 2 === 1 ? part.slice(1, -1) : part
        .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // a link: its text
        .replace(/<\/?[a-z][^>]*>/gi, "") // html tags
        .replace(/(^|[^\p{L}\p{N}])[*_]+|[*_]+(?=[^\p{L}\p{N}]|$)/gu, "$1") // emphasis markers
    )
    .join("");
  return text.toLowerCase().replace(/[^\p{L}\p{N}\p{M} _-]/gu, "").replace(/ /g, "-");
}

/** Every anchor a page offers: its headings' slugs (repeats numbered `-1`, `-2`) and `<a id>` names. */
export function pageAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, text] of proseLines(markdown)) {
    for (const match of text.matchAll(HTML_ANCHOR)) anchors.add(match[1]);
    const heading = HEADING.exec(text);
    if (!heading) continue;
    const slug = githubSlug(heading[2]);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The inline links, images and reference definitions of a page, outside code. */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const [line, raw] of proseLines(markdown)) {
    const text = raw.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, (span) => " ".repeat(span.length));
    const reference = REFERENCE.exec(text);
    if (reference) links.push({ line, target: reference[1] });
    for (const match of text.matchAll(INLINE_LINK)) links.push({ line, target: match[1] });
  }
  return links.map((link) => ({ ...link, target: link.target.replace(/^<(.*)>$/, "$1") }));
}

/** The links of `file` (relative to the project root) that do not resolve. */
export function checkPage(file: string, markdown: string, sources: LinkSources): LinkProblem[] {
  const problems: LinkProblem[] = [];
  for (const { line, target } of markdownLinks(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) continue;
    const hash = target.indexOf("#");
    const pathPart = decodeURIComponent((hash === -1 ? target : target.slice(0, hash)).replace(/\?.*$/, ""));
    const fragment = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const path = pathPart === "" ? file : normalize(join(dirname(file), pathPart)).replace(/\/$/, "");
    const problem = (reason: string) => problems.push({ file, line, target, reason });
    if (pathPart.startsWith("/") || path.startsWith("..")) {
      problem("points outside the project");
      continue;
    }
    if (pathPart !== "" && !sources.exists(path)) {
      problem(`no file ${path}`);
      continue;
    }
    if (fragment === undefined || fragment === "") continue;
    if (!path.endsWith(".md")) continue;
    const page = path === file ? markdown : sources.readPage(path);
    if (page === undefined) problem(`cannot read ${path}`);
    else if (!pageAnchors(page).has(fragment)) problem(`no heading #${fragment} in ${path}`);
  }
  return problems;
}

const SKIPPED = new Set(["node_modules", "tests/fixtures", "dist", "coverage"]);

/** The markdown pages of the project under `root`, relative paths, sorted. */
function projectPages(root: string, dir = ""): string[] {
  const pages: string[] = [];
  const entries = [...Deno.readDirSync(join(root, dir))];
  if (dir !== "" && entries.some((entry) => entry.name === "deno.json")) return pages;
  for (const entry of entries) {
    const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
    if (entry.name.startsWith(".") || SKIPPED.has(path)) continue;
    if (entry.isDirectory) pages.push(...projectPages(root, path));
    else if (entry.isFile && entry.name.endsWith(".md")) pages.push(path);
  }
  return pages.sort();
}

if (import.meta.main) {
  const root = resolve(dirname(new URL(import.meta.url).pathname), "..");
  const cache = new Map<string, string | undefined>();
  const sources: LinkSources = {
    exists(path) {
      try {
        Deno.statSync(join(root, path));
        return true;
      } catch {
        return false;
      }
    },
    readPage(path) {
      if (!cache.has(path)) {
        try {
          cache.set(path, Deno.readTextFileSync(join(root, path)));
        } catch {
          cache.set(path, undefined);
        }
      }
      return cache.get(path);
    },
  };
  const pages = projectPages(root);
  const problems = pages.flatMap((page) => checkPage(page, sources.readPage(page) ?? "", sources));
  for (const p of problems) console.error(`${p.file}:${p.line}: ${p.target}: ${p.reason}`);
  if (problems.length > 0) {
    console.error(`links: ${problems.length} broken in ${pages.length} pages`);
    Deno.exitCode = 1;
  } else console.log(`links: ${pages.length} pages, all relative links resolve`);
}
