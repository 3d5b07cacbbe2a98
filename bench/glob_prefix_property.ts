/**
 * A property test of the resolve stage's glob lists against picomatch: for generated globs (braces,
 * extglobs, `!` at the start, `**` in the middle, classes, escapes, `./`, `//`, `/.`, trailing `/`
 * and `/**`, backslashes, blanks and punctuation, NFC and NFD letters, emoji) and paths made from
 * them, every path picomatch (`dot`) matches must start with the glob's `globPrefix`, and
 * `manyGlobsMatcher` of a few globs must decide as one picomatch matcher of the list. Prints each
 * disagreement (at most 40) and the counts; exits 1 on any.
 *
 * ```sh
 * deno run -A bench/glob_prefix_property.ts --seed 7 --globs 40000
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import { loadPicomatch } from "../deps.ts";
import { loadGlobMatcher, manyGlobsMatcher } from "../pipeline/_path_matchers.ts";
import { globPrefix } from "../pipeline/path_starts.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { seed: { type: "string", default: "1" }, globs: { type: "string", default: "20000" } },
});
const picomatch = await loadPicomatch();

let seed = Number(values.seed);
/** A linear congruential generator: the same seed, the same cases. */
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)];

const LITERAL = ["a", "b", "A", "x", "1", ".", "..", "/", "/", "-", "_", "~", " ", "#", "%", "="];
LITERAL.push(":", ";", "&", "é", "e\u0301", "ß", "İ", "😀", "\u212A", "k");
const SYNTAX = ["*", "**", "?", "[a-c]", "[!a]", "{a,b}", "{a,}", "{,/b}", "!(a)", "+(a)"];
SYNTAX.push("@(a|b)", "*(b)", "\\*", "\\a", "(", ")", "!", "[[:alpha:]]", "//", "./", "../");
SYNTAX.push("/.", "/..", "$", "^", "|", "\\", "");
const PATH = [...LITERAL, "*", "?", "[", "{", "(", "!", "\\", "$", "\n"];

function glob(): string {
  let text = "";
  for (let i = Math.floor(random() * 6); i >= 0; i--) {
    text += random() < 0.7 ? pick(LITERAL) : pick(SYNTAX);
  }
  if (random() < 0.1) text = "!" + text;
  if (random() < 0.1) text = "./" + text;
  if (random() < 0.15) text += "/";
  if (random() < 0.15) text += "/**";
  return text;
}

/** A path like the glob: its syntax characters kept, dropped or replaced at random. */
function pathFrom(pattern: string): string {
  let path = "";
  for (const char of pattern) {
    if (!"*?[]{}()!+@|\\,".includes(char)) path += random() < 0.05 ? pick(PATH) : char;
    else if (random() < 0.5) path += random() < 0.5 ? pick(PATH) : "";
    else path += char;
  }
  if (random() < 0.2) path += "/" + pick(PATH);
  return path.replace(/^\/+/, "");
}

let checked = 0;
let matched = 0;
const wrong: string[] = [];
for (let i = 0; i < Number(values.globs); i++) {
  const pattern = glob();
  let match: (path: string) => boolean;
  try {
    match = picomatch(pattern, { dot: true });
  } catch {
    continue;
  }
  const prefix = globPrefix(pattern);
  for (let j = 0; j < 20; j++) {
    const path = j < 15 ? pathFrom(pattern) : pathFrom(glob());
    if (!path) continue;
    checked++;
    if (!match(path)) continue;
    matched++;
    if (!path.startsWith(prefix)) wrong.push(JSON.stringify({ glob: pattern, prefix, path }));
  }
}
let lists = 0;
for (let i = 0; i < Number(values.globs) / 10; i++) {
  const globs = Array.from({ length: 2 + Math.floor(random() * 5) }, glob);
  let one: (path: string) => boolean;
  let many: (path: string) => boolean;
  try {
    one = await loadGlobMatcher(globs, { dot: true });
    many = await manyGlobsMatcher(globs);
  } catch {
    continue;
  }
  for (let j = 0; j < 30; j++) {
    const path = pathFrom(pick(globs));
    if (!path) continue;
    lists++;
    if (one(path) !== many(path)) wrong.push(JSON.stringify({ globs, path, picomatch: one(path) }));
  }
}
for (const line of wrong.slice(0, 40)) console.log(line);
console.log(JSON.stringify({ checked, matched, lists, wrong: wrong.length }));
if (wrong.length) Deno.exit(1);
