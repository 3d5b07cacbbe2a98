/**
 * The code views on a real project, per language: every file of the given
 * extensions under a folder (a clone of someone else's project) through the
 * skeleton, counting crashes, parses with syntax errors, and garbled lines (a
 * skeleton line that, its body and value markers taken out, is no part of the
 * file: the sign of a declaration cut wrong); then the same for corrupted
 * variants of the first 40 files (cut short, lines lost, braces or `end`s
 * removed, random bytes), which must render without a crash, the same bytes
 * twice.
 *
 * ```sh
 * deno run -A bench/grammar_sweep.ts ~/src/okio .kt .kts
 * ```
 *
 * @module
 */

import { join } from "node:path";
import { renderCode } from "../plugins/view_modes/_code.ts";
import { languageFor } from "../grammars/languages.ts";
import { corrupted } from "../tests/views/_language_goldens.ts";

/** Files under `dir` whose names end with one of `exts`, sorted (`.git` left out). */
function filesOf(dir: string, exts: string[]): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const entry of Deno.readDirSync(at)) {
      const path = join(at, entry.name);
      if (entry.isDirectory && entry.name !== ".git") walk(path);
      else if (entry.isFile && exts.some((e) => entry.name.endsWith(e))) out.push(path);
    }
  };
  walk(dir);
  return out.sort();
}

/** The skeleton lines of `view` that are no part of `text`, markers taken out. */
function garbled(path: string, text: string, view: string): string[] {
  const spec = languageFor(path)!;
  return view.split("\n").filter((line) => {
    // A component's template or style stands as `<template> ... (40 lines) </template>`.
    const parts = line.replace(/\.\.\. \(\d+ lines\)/g, "\0").split(spec.bodyMarker).join("\0")
      .split(spec.valueMarker).join("\0");
    return parts.split("\0").map((p) => p.trim()).some((p) => p && !text.includes(p));
  });
}

/** The sweep's counts, and the first problems found. */
async function sweep(dir: string, exts: string[]) {
  const files = filesOf(dir, exts);
  const counts = {
    files: files.length,
    noCode: 0,
    crashes: 0,
    parseErrors: 0,
    garbled: 0,
    variants: 0,
  };
  const problems: string[] = [];
  for (const [i, path] of files.entries()) {
    const text = Deno.readTextFileSync(path);
    try {
      const view = await renderCode(path, text);
      // No code to the views (a component with no script).
      if (!view) {
        counts.noCode++;
        continue;
      }
      if (view.hasErrors) counts.parseErrors++;
      const bad = garbled(path, text, view.text);
      counts.garbled += bad.length;
      problems.push(...bad.map((line) => `${path}: ${line}`));
    } catch (error) {
      counts.crashes++;
      problems.push(`${path}: ${error}`);
    }
    if (i >= 40) continue;
    for (const variant of corrupted(text, { garble: 0.02, nul: true })) {
      counts.variants++;
      try {
        const first = await renderCode(path, variant);
        const again = await renderCode(path, variant);
        if (first?.text !== again?.text) {
          problems.push(`${path}: a variant differs when rendered again`);
        }
      } catch (error) {
        counts.crashes++;
        problems.push(`${path} (corrupted): ${error}`);
      }
    }
  }
  return { counts, problems };
}

if (import.meta.main) {
  const [dir, ...exts] = Deno.args;
  if (!dir || !exts.length) {
    console.error("usage: deno run -A bench/grammar_sweep.ts DIR .ext [.ext...]");
    Deno.exit(2);
  }
  const { counts, problems } = await sweep(dir, exts);
  console.log(JSON.stringify(counts));
  for (const problem of problems.slice(0, 25)) console.log(`  ${problem}`);
}
