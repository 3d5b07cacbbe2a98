/**
 * Glob matching as picomatch does it with `{ dot: true }`, without loading
 * picomatch for the common patterns: those built of literal segments, `**`
 * segments and segments with `*` (`src/**`, `**\/*.ts`, `docs/*.md`,
 * `README.md`) get a regular expression of the same meaning built here.
 * Other patterns (braces, classes, `?`, extglobs, options other than `dot`)
 * need picomatch itself: `await loadGlobs(patterns)` of `deps.ts` loads it
 * when they do, after which {@linkcode compileGlobs} is synchronous for
 * every pattern. picomatch is a CommonJS package: the first one a process
 * loads starts Deno's CommonJS loader, a cost a warm build should not pay
 * for nothing. This module imports nothing, so that plugins may import it.
 *
 * @module
 */

/** Options slop passes to picomatch. */
export interface GlobOptions {
  /** Let `*` and `**` match names starting with a dot (slop always sets it). */
  dot?: boolean;
  /** Match the pattern against the last segment of paths. */
  basename?: boolean;
  /** Compare letters without case. */
  nocase?: boolean;
}

/** A matcher factory called as picomatch is: `picomatch(patterns, options)(path)`. */
export type GlobFactory = (
  patterns: string | string[],
  options?: GlobOptions,
) => (path: string) => boolean;

let picomatch: GlobFactory | undefined;

/**
 * Remember picomatch, loaded by `loadGlobs()` of `deps.ts`, for the patterns
 * this module does not match itself.
 *
 * @example
 * ```ts
 * import { usePicomatch } from "./_glob.ts";
 * import { loadPicomatch } from "../deps.ts";
 * usePicomatch(await loadPicomatch());
 * ```
 */
export function usePicomatch(factory: GlobFactory): void {
  picomatch = factory;
}

// The pieces of picomatch's regular expressions (with `dot`): a segment that is
// not `.` or `..` (at the start or after a slash, and at the start of a segment),
// one character that is not a line break, a `*`, and a `**` (any text in which no
// segment is `.` or `..`, and no line break: `.` matches none).
const NOT_DOTS = String.raw`(?!(?:^|\/)\.{1,2}(?:\/|$))`;
const NOT_DOTS_HERE = String.raw`(?!\.{1,2}(?:\/|$))`;
const ONE_CHAR = "(?=.)";
const STAR = "[^/]*?";
const GLOBSTAR = String.raw`(?:(?:(?!(?:^|\/)\.{1,2}(?:\/|$)).)*?)`;
const ANY_DIRS = String.raw`(?:${NOT_DOTS}${GLOBSTAR}\/)?`;

/** The shapes picomatch compiles without parsing (patterns starting with `*` or `.`). */
const QUICK_SHAPES: Record<string, string> = {
  "*": NOT_DOTS + ONE_CHAR + STAR,
  ".*": String.raw`\.` + ONE_CHAR + STAR,
  "*.*": NOT_DOTS + STAR + String.raw`\.` + ONE_CHAR + STAR,
  "*/*": NOT_DOTS + STAR + String.raw`\/` + ONE_CHAR + NOT_DOTS_HERE + STAR,
  "**": NOT_DOTS + GLOBSTAR,
  "**/*": ANY_DIRS + NOT_DOTS_HERE + ONE_CHAR + STAR,
  "**/*.*": ANY_DIRS + NOT_DOTS_HERE + STAR + String.raw`\.` + ONE_CHAR + STAR,
  "**/.*": ANY_DIRS + String.raw`\.` + ONE_CHAR + STAR,
};

/** Patterns picomatch reads as shorter ones. */
const SAME_AS: Record<string, string> = { "***": "*", "**/**": "**", "**/**/**": "**" };

/** Characters a literal part may hold: letters, digits, marks and punctuation globs never read. */
const LITERAL = /^[\p{L}\p{N}\p{M}._\-~ #%=:;&]+$/u;

/** The source of the regular expression of a quick shape with `.ext` endings, if it is one. */
function quickShape(pattern: string): string | undefined {
  // Own keys only: a file named `constructor` is a pattern like any other.
  if (Object.hasOwn(QUICK_SHAPES, pattern)) return QUICK_SHAPES[pattern];
  const split = /^(.*?)\.(\w+)$/.exec(pattern);
  if (!split) return undefined;
  const head = quickShape(split[1]);
  return head === undefined ? undefined : `${head}\\.${split[2]}`;
}

function escapeLiteral(text: string): string {
  return text.replace(/[.]/g, "\\.");
}

/** The source of a segment without `*` (not only dots), or `undefined` for any other. */
function literalPart(segment: string): string | undefined {
  return LITERAL.test(segment) && !/^\.+$/.test(segment) ? escapeLiteral(segment) : undefined;
}

/** The source of one segment holding `*` (not `**`), or `undefined` for any other. */
function starSegment(segment: string): string | undefined {
  // `.*` as a segment's start has an expression of its own in picomatch: left to it.
  if (segment.startsWith(".*")) return undefined;
  const parts = segment.split("*");
  if (
    parts.some((part, i) => part === "" ? i !== 0 && i !== parts.length - 1 : !LITERAL.test(part))
  ) {
    return undefined;
  }
  // A literal between two stars is matched where it first occurs, and never tried again (a
  // lookahead's capture, then a backreference to it): `*a*a*a…*b` against a long name of `a`s
  // took time growing as the name's length to the power of the stars (minutes for 13 stars).
  // The first occurrence is always right: a star after it takes whatever a later one would skip.
  const body = parts.map((part, i) =>
    i === 0
      ? escapeLiteral(part)
      : i < parts.length - 1 && part !== ""
      ? `(?=(?<${GROUP}>${STAR}${escapeLiteral(part)}))\\k<${GROUP}>`
      : STAR + escapeLiteral(part)
  ).join("");
  return segment.startsWith("*") ? NOT_DOTS_HERE + ONE_CHAR + body : body;
}

/** Stands for a group's name in a source until {@linkcode nameGroups} numbers them. */
const GROUP = "\u0001";

/** A source with its groups named `g1`, `g2`, … in order (each named twice: its group, its reference). */
function nameGroups(source: string): string {
  return source.split(GROUP).map((part, i) => i ? `g${(i + 1) >> 1}${part}` : part).join("");
}

/**
 * The source of picomatch's regular expression (with `dot`) for a pattern of
 * literal, `**` and `*` segments, or `undefined` for any other pattern.
 */
function simpleSource(pattern: string): string | undefined {
  if (pattern === "" || pattern.length > 65536) return undefined;
  const same = Object.hasOwn(SAME_AS, pattern) ? SAME_AS[pattern] : pattern;
  if (same.startsWith("*") || same.startsWith(".")) {
    const quick = quickShape(same);
    if (quick !== undefined) return `${quick}\\/?`;
  }
  const segments = pattern.split("/");
  // One segment not starting with `*`: picomatch only replaces each `*`, with no optional `/`.
  if (segments.length === 1 && !pattern.startsWith("*")) {
    return pattern.includes("*") ? starSegment(pattern) : literalPart(pattern);
  }
  let source = "";
  for (const [i, segment] of segments.entries()) {
    const last = i === segments.length - 1;
    if (segment === "**") {
      if (segments[i + 1] === "**" || segments.length === 1) return undefined;
      if (i === 0) source += String.raw`(?:^|\/|${GLOBSTAR}\/)`;
      // A last `**` after a segment ending in `*` needs its slash (`a*/**` is not `ab`).
      else if (last && segments[i - 1].endsWith("*")) source += `\\/${NOT_DOTS_HERE}${GLOBSTAR}`;
      else if (last) source += String.raw`(?:\/${NOT_DOTS_HERE}${GLOBSTAR}|$)`;
      else source += String.raw`(?:\/${NOT_DOTS_HERE}${GLOBSTAR}\/|\/|$)`;
      continue;
    }
    if (segment === "" || /^\.+$/.test(segment)) return undefined;
    const part = segment.includes("*") ? starSegment(segment) : literalPart(segment);
    if (part === undefined) return undefined;
    if (i > 0 && segments[i - 1] !== "**") source += "\\/";
    source += part;
    if (last && segment.endsWith("*")) source += "\\/?";
  }
  return source;
}

/**
 * Most `*` one segment of a glob picomatch matches may hold: its expression tries every way to
 * share a name among the stars, time growing as the name's length to the power of their number
 * (4 stars already take seconds on a long name). Patterns slop matches itself (only `*`, `**`
 * and plain text) are linear and have no limit.
 */
const PICOMATCH_MAX_STARS = 3;

/** The longest glob picomatch takes (its `maxLength`): it throws on a longer one. */
const PICOMATCH_MAX_LENGTH = 65536;

/**
 * Why a glob would take too long to match (more than {@linkcode PICOMATCH_MAX_STARS} `*` in a
 * segment of a pattern picomatch matches) or cannot be matched (longer than
 * {@linkcode PICOMATCH_MAX_LENGTH}), in words that follow its name, or undefined.
 *
 * @example
 * ```ts
 * import { globStarProblem } from "./_glob.ts";
 * globStarProblem("*a*a*a*a*b"); // undefined: slop's own matcher, linear
 * globStarProblem("{x,y}*a*a*a*b"); // 'holds 4 "*" in one segment …'
 * ```
 */
export function globStarProblem(pattern: string): string | undefined {
  if (simpleSource(pattern) !== undefined) return undefined;
  // A path with no glob character is matched as written, at any length.
  if (pattern.length > PICOMATCH_MAX_LENGTH && /[*?[\]{}!()]/.test(pattern)) {
    return `is ${pattern.length} characters long, over the ${PICOMATCH_MAX_LENGTH} a glob matched ` +
      "by picomatch may hold";
  }
  for (const segment of pattern.split("/")) {
    const stars = segment === "**" ? 0 : segment.split("*").length - 1;
    if (stars <= PICOMATCH_MAX_STARS) continue;
    return `holds ${stars} "*" in one segment, with braces, a class or "?" that picomatch ` +
      "matches, whose time grows as a name's length to the power of the stars: use at most " +
      `${PICOMATCH_MAX_STARS} there, or only "*" and plain text`;
  }
  return undefined;
}

/**
 * Whether picomatch is needed to match these patterns with these options
 * (and is not loaded yet).
 *
 * @example
 * ```ts
 * import { needsPicomatch } from "./_glob.ts";
 * needsPicomatch(["src/**", "**\/*.ts"]); // false
 * ```
 */
export function needsPicomatch(
  patterns: string | string[],
  options: GlobOptions = { dot: true },
): boolean {
  if (picomatch) return false;
  if (!options.dot || options.basename) return true;
  return [patterns].flat().some((pattern) => simpleSource(pattern) === undefined);
}

/**
 * A matcher of `patterns` (any of them) built here, deciding as picomatch
 * does with `{ dot: true }`, or `undefined` when a pattern is not made of
 * literal, `**` and `*` segments.
 *
 * @example
 * ```ts
 * import { simpleGlobs } from "./_glob.ts";
 * simpleGlobs(["docs/*.md"])?.("docs/a.md"); // true
 * simpleGlobs(["src/{a,b}.ts"]); // undefined
 * ```
 */
export function simpleGlobs(
  patterns: string | string[],
  options: { nocase?: boolean } = {},
): ((path: string) => boolean) | undefined {
  const list = [patterns].flat();
  const sources = list.map(simpleSource);
  if (sources.some((s) => s === undefined)) return undefined;
  const expression = new RegExp(
    nameGroups(`^(?:${sources.map((s) => `(?:${s})`).join("|")})$`),
    // picomatch's `nocase` is this flag on its expression.
    options.nocase ? "i" : "",
  );
  const literal = new Set(list);
  // picomatch also matches a path equal to the pattern, whatever its expression says.
  return (path) => path !== "" && (literal.has(path) || expression.test(path));
}

/**
 * A matcher of `patterns` (any of them) that decides as picomatch does with
 * `options` (`{ dot: true }` unless told otherwise). Patterns that need
 * picomatch itself throw until `loadGlobs()` of `deps.ts` has loaded it.
 *
 * @example
 * ```ts
 * import { compileGlobs } from "./_glob.ts";
 * compileGlobs(["src/**", "*.md"])("src/a/b.ts"); // true
 * ```
 */
export function compileGlobs(
  patterns: string | string[],
  options: GlobOptions = { dot: true },
): (path: string) => boolean {
  const list = [patterns].flat();
  // Only `dot` (and `nocase`) is built here (picomatch's default is without it).
  const plain = options.dot === true && !options.basename;
  const simple = plain ? simpleGlobs(list, { nocase: options.nocase }) : undefined;
  if (simple) return simple;
  if (!picomatch) {
    const named = list.map((p) => `"${p}"`).join(", ");
    const s = list.length > 1 ? "s" : "";
    throw new Error(
      `[slop] Glob${s} ${named} need${s ? "" : "s"} picomatch, which is not loaded yet ` +
        "(await loadGlobs() of mod.ts first)",
    );
  }
  return picomatch(list, options);
}
