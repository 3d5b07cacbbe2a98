/**
 * Vue and Svelte single-file components: where their `<script>` blocks are, which grammar reads
 * each (`lang="ts"` TypeScript, `lang="tsx"` TSX, else JavaScript), and the parts around them
 * (template, markup, style), so that the code views can render the scripts and stand one short
 * line for each other part.
 *
 * A block is a `<script` tag at the start of a line, outside an HTML comment, up to the next
 * `</script>`: the top-level blocks of a component are written so, and a script inside markup
 * (Svelte's `<svelte:head>`) is indented.
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

/** A `<script` at the start of a line, or an HTML comment's start. */
const SCRIPT_OR_COMMENT = /^<script(?=[\s>])|<!--/gm;

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
  let at = 0;
  SCRIPT_OR_COMMENT.lastIndex = 0;
  for (let m = SCRIPT_OR_COMMENT.exec(text); m; m = SCRIPT_OR_COMMENT.exec(text)) {
    if (m[0] === "<!--") {
      const close = text.indexOf("-->", m.index + 4);
      if (close < 0) break;
      SCRIPT_OR_COMMENT.lastIndex = close + 3;
      continue;
    }
    const tagEnd = openTagEnd(text, m.index);
    const close = tagEnd < 0 ? -1 : text.indexOf("</script>", tagEnd + 1);
    if (close < 0) break;
    if (m.index > at) parts.push({ kind: "other", start: at, end: m.index });
    const open = text.slice(m.index, tagEnd + 1);
    const end = close + "</script>".length;
    parts.push({
      kind: "script",
      start: m.index,
      end,
      open,
      codeStart: tagEnd + 1,
      codeEnd: close,
      grammar: grammarOf(open),
    });
    at = end;
    SCRIPT_OR_COMMENT.lastIndex = end;
  }
  if (!parts.length) return [];
  if (at < text.length) parts.push({ kind: "other", start: at, end: text.length });
  return parts;
}

/** Where an opening tag ends: its `>` outside quoted values (`generic="T extends A<B>"`), or -1. */
function openTagEnd(text: string, from: number): number {
  let quote = "";
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'") quote = c;
    else if (c === ">") return i;
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
