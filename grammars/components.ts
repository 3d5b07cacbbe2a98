/**
 * Vue and Svelte single-file components: where their `<script>` blocks are, which grammar reads
 * each (`lang="ts"` TypeScript, `lang="tsx"` TSX, else JavaScript), and the parts around them
 * (template, markup, style), so that the code views can render the scripts and stand one short
 * line for each other part.
 *
 * A block is a `<script` tag at the start of a line, at the component's top level, up to the next
 * `</script>`: the top-level blocks of a component are written so. A `<script` inside an element
 * (Svelte's `<svelte:head>`, a `<pre>`, a Vue `<docs>` block), inside a Svelte `{...}` expression
 * (a template string) or inside an HTML comment is none, as Svelte's and Vue's parsers read it.
 *
 * @module
 */

/** The extensions of single-file components. */
const COMPONENT = /\.(?:vue|svelte)$/i;

/**
 * Whether a path is a Vue or Svelte single-file component's.
 *
 * @example
 * ```ts
 * import { isComponentFile } from "./components.ts";
 * isComponentFile("src/Button.vue"); // true
 * isComponentFile("src/App.svelte"); // true
 * isComponentFile("src/app.ts"); // false
 * ```
 */
export function isComponentFile(path: string): boolean {
  return COMPONENT.test(path);
}

/** One part of a component: a script block, or what lies between two. */
export interface ComponentPart {
  /** `script` for a script block, `other` for template, markup, style and other blocks. */
  kind: "script" | "other";
  /** Offset of the part's first character. */
  start: number;
  /** Offset after its last character. */
  end: number;
  /** A script's opening tag, as written (`<script setup lang="ts">`). */
  open?: string;
  /** Offset of a script's code: after its opening tag. */
  codeStart?: number;
  /** Offset after a script's code: where its `</script>` starts. */
  codeEnd?: number;
  /** The grammar a script's code is read with: `typescript`, `tsx` or `javascript`. */
  grammar?: "typescript" | "tsx" | "javascript";
}

/**
 * The elements open around the markup read so far, and how deep in a Svelte `{...}` expression
 * outside every element it is. `counts` says how often a name is open, so that an end tag with no open element of its name
 * is passed over without a search.
 */
interface Nesting {
  open: string[];
  counts: Map<string, number>;
  braces: number;
}

/** HTML's void elements: they have no end tag. */
const VOID = new Set(
  "area base br col embed hr img input link meta param source track wbr".split(" "),
);

/**
 * Elements whose end tag HTML lets one leave out (`<li>`, `<p>`): they are not counted as open,
 * so that markup that leaves them open does not hide a later block.
 */
const OPTIONAL_END = new Set(
  "p li dt dd option optgroup tr td th thead tbody tfoot colgroup rb rt rtc rp".split(" "),
);

/** The end tags of the elements that hold text, not markup, in any case. */
const STYLE_END = /<\/style/gi;
const SCRIPT_END = /<\/script/gi;

/** A tag's start: `<name` or `</name`. */
const TAG = /<(\/?)([A-Za-z][\w:.-]*)/y;

/**
 * The parts of a component's text, in order, covering it whole: each top-level script block,
 * and each run of text between them; none when it has no script block (or one not closed).
 *
 * @example
 * ```ts
 * import { componentParts } from "./components.ts";
 * const parts = componentParts('<script setup lang="ts">\nconst a = 1\n</script>\n\n<template>\n  <p/>\n</template>\n');
 * parts.map((p) => [p.kind, p.grammar]); // [["script", "typescript"], ["other", undefined]]
 * ```
 */
export function componentParts(text: string): ComponentPart[] {
  const parts: ComponentPart[] = [];
  const nesting: Nesting = { open: [], counts: new Map(), braces: 0 };
  let at = 0;
  for (
    let start = nextScript(text, 0, nesting);
    start >= 0;
    start = nextScript(text, at, nesting)
  ) {
    const tagEnd = openTagEnd(text, start);
    const close = tagEnd < 0 ? -1 : text.indexOf("</script>", tagEnd + 1);
    if (close < 0) break;
    if (start > at) parts.push({ kind: "other", start: at, end: start });
    const open = text.slice(start, tagEnd + 1);
    const end = close + "</script>".length;
    parts.push({
      kind: "script",
      start,
      end,
      open,
      codeStart: tagEnd + 1,
      codeEnd: close,
      grammar: grammarOf(open),
    });
    at = end;
  }
  if (!parts.length) return [];
  if (at < text.length) parts.push({ kind: "other", start: at, end: text.length });
  return parts;
}

/**
 * Where the next top-level `<script` tag at a line's start is, reading the markup from `from`
 * (tags, comments, Svelte's braces) into `nesting`; -1 when there is none. Each character is read
 * once: a comment, a quoted value and a `<style>` or inner `<script>` are passed over whole.
 */
function nextScript(text: string, from: number, nesting: Nesting): number {
  for (let i = from; i < text.length;) {
    const c = text[i];
    if (nesting.braces > 0) {
      i = inExpression(text, i, nesting);
      continue;
    }
    // Outside every element only Svelte's markup has braces (Vue's blocks are elements): what a
    // Vue block holds, a `<docs>` block's prose with a lone `{`, is not read as an expression.
    if (c === "{" && nesting.open.length === 0) nesting.braces++;
    if (c !== "<") {
      i++;
      continue;
    }
    if (text.startsWith("<!--", i)) {
      const close = text.indexOf("-->", i + 4);
      if (close < 0) return -1;
      i = close + 3;
      continue;
    }
    TAG.lastIndex = i;
    const tag = TAG.exec(text);
    const end = tag ? openTagEnd(text, i) : i;
    if (!tag || end < 0) {
      i = end < 0 ? text.length : i + 1;
      continue;
    }
    const name = tag[2].toLowerCase();
    const top = !tag[1] && nesting.open.length === 0 && (i === 0 || text[i - 1] === "\n");
    if (top && name === "script") return i;
    i = enterTag(text, { closing: tag[1] === "/", name: tag[2], end }, nesting);
  }
  return -1;
}

/**
 * Read a tag into `nesting`: an end tag closes the elements opened since its own (an end tag
 * nothing opened is passed over), a start tag opens one unless it closes itself (`<Foo />`, a
 * void or optional-end element). `<style>` and an inner `<script>` hold text, not markup: what
 * comes after their end tag is returned.
 */
function enterTag(
  text: string,
  tag: { closing: boolean; name: string; end: number },
  nesting: Nesting,
): number {
  const { open, counts } = nesting;
  const lower = tag.name.toLowerCase();
  if (tag.closing) {
    while ((counts.get(tag.name) ?? 0) > 0) {
      const name = open.pop()!;
      counts.set(name, counts.get(name)! - 1);
      if (name === tag.name) break;
    }
    return tag.end + 1;
  }
  if (lower === "style" || lower === "script") {
    const closing = lower === "style" ? STYLE_END : SCRIPT_END;
    closing.lastIndex = tag.end + 1;
    return closing.exec(text) ? closing.lastIndex : text.length;
  }
  if (text[tag.end - 1] === "/" || VOID.has(lower) || OPTIONAL_END.has(lower)) return tag.end + 1;
  open.push(tag.name);
  counts.set(tag.name, (counts.get(tag.name) ?? 0) + 1);
  return tag.end + 1;
}

/**
 * Read one step of a Svelte `{...}` expression: a brace, or a quoted string passed over whole (a
 * template string's `<script>` is text); where the next step starts.
 */
function inExpression(text: string, i: number, nesting: Nesting): number {
  const c = text[i];
  if (c === "{") nesting.braces++;
  else if (c === "}") nesting.braces--;
  else if (c === '"' || c === "'" || c === "`") {
    for (let j = i + 1; j < text.length; j++) {
      if (text[j] === "\\") j++;
      else if (text[j] === c) return j + 1;
    }
    return text.length;
  }
  return i + 1;
}

/**
 * Where an opening tag ends: its `>` outside quoted values (`generic="T extends A<B>"`) and
 * Svelte's braced ones (`on:click={() => a > b}`), or -1.
 */
function openTagEnd(text: string, from: number): number {
  let quote = "";
  let braces = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "{") braces++;
    else if (c === "}" && braces > 0) braces--;
    else if (c === ">" && braces === 0) return i;
  }
  return -1;
}

/** The grammar of a script by its opening tag's `lang` (or `type`) attribute. */
function grammarOf(open: string): "typescript" | "tsx" | "javascript" {
  const lang = /\s(?:lang|type)\s*=\s*["']?([\w/+-]+)/i.exec(open)?.[1]?.toLowerCase() ?? "";
  if (lang === "tsx") return "tsx";
  return /^(?:ts|typescript|text\/typescript|application\/typescript)$/.test(lang)
    ? "typescript"
    : "javascript";
}
