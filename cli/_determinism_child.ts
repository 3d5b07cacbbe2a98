/**
 * One build of `slop check --determinism`, run in its own process (with the
 * shuffling preload and its own TZ and locale). Reads its flags as JSON from
 * `SLOP_DETERMINISM_FLAGS` and prints `{ document, blocks }` as JSON.
 *
 * @module
 */

import { loadConfig } from "../pipeline/config.ts";
import { build } from "../pipeline/build.ts";
import { defaultPlugins } from "../plugins/defaults.ts";

const flags = JSON.parse(Deno.env.get("SLOP_DETERMINISM_FLAGS") ?? "{}");
const config = await loadConfig(flags.config);
// The second build skips the transform cache, so a cache that changes bytes shows up too.
if (flags.noCache) config.cache.enabled = false;
const result = await build(config, {
  builtins: defaultPlugins(),
  write: false,
  orderSource: "lock",
});
const views = new Map(result.files.map((f) => [`files:${f.path}`, f.view]));
const blocks = result.blocks.map((b) => ({
  id: b.id,
  offset: b.offset,
  length: b.length,
  view: views.get(b.id),
}));
const out = new TextEncoder().encode(JSON.stringify({ document: result.document, blocks }));
let written = 0;
while (written < out.length) written += await Deno.stdout.write(out.subarray(written));
