/**
 * What looking for bidirectional controls costs: `bidiControls` over every tracked text file of a
 * tree (a git work tree, e.g. a clone of a mirror), as the transform runs it on a view's text, and
 * `bidiControlBytes` over their UTF-8, as a text kept in the cache's pack is marked; three rounds.
 * See bench/README.md, "Bidirectional controls noted".
 *
 * ```sh
 * deno run -A bench/bidi_scan.ts /tmp/discord.js
 * ```
 *
 * @module
 */

import { bidiControlBytes, bidiControls } from "../pipeline/bidi_controls.ts";

const root = Deno.args[0];
const listing = new Deno.Command("git", { args: ["-C", root, "ls-files", "-z"] }).outputSync();
const texts: string[] = [];
const bytes: Uint8Array[] = [];
for (const path of new TextDecoder().decode(listing.stdout).split("\0").filter(Boolean)) {
  try {
    const read = Deno.readFileSync(`${root}/${path}`);
    if (read.includes(0)) continue;
    bytes.push(read);
    texts.push(new TextDecoder().decode(read));
  } catch {
    // A folder (a submodule) or a link that leads nowhere: not a text.
  }
}
const chars = texts.reduce((n, t) => n + t.length, 0);
const wide = texts.filter((t) => /[\u0100-\uffff]/.test(t)).reduce((n, t) => n + t.length, 0);
for (let round = 0; round < 3; round++) {
  let start = performance.now();
  const found = texts.filter((text) => bidiControls(text)).length;
  const textMs = performance.now() - start;
  start = performance.now();
  const foundInBytes = bytes.filter((b) => bidiControlBytes(b)).length;
  const bytesMs = performance.now() - start;
  console.log(
    `${texts.length} texts, ${(chars / 1e6).toFixed(1)} M characters (${
      (wide / 1e6).toFixed(1)
    } M in texts past Latin-1): texts ${textMs.toFixed(1)} ms, bytes ${
      bytesMs.toFixed(1)
    } ms, files with controls ${found} / ${foundInBytes}`,
  );
}
