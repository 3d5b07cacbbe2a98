// A warm build takes most of a big tree's files from the view cache: a hit the cache reads
// synchronously is given at once by `renderSoon` (a value, not a promise), so the transform takes
// no task turn and no place in its window for it; a miss is still a promise, and the hits give
// the same files and warnings as the renders they were stored from.
import assert from "node:assert/strict";
import { join } from "node:path";
import { defaultPlugins, loadConfig } from "../../mod.ts";
import { createRegistry } from "../../pipeline/registry.ts";
import { openCache } from "../../pipeline/cache.ts";
import { type Render, type RenderOptions, renderSoon } from "../../pipeline/transform.ts";
import { transformKept } from "../../accel/kept_renders.ts";
import type { SourceFile } from "../../pipeline/types.ts";
import { makeProject, tempDir } from "../_helpers.ts";

function sources(root: string): SourceFile[] {
  return Array.from({ length: 40 }, (_, i) => {
    // Every fifth text has a bidi control: its block has a note.
    const text = `line ${i}\n${i % 5 === 0 ? "a\u202eb\n" : ""}`;
    const bytes = new TextEncoder().encode(text);
    return {
      path: `f${i}.txt`,
      absPath: `${root}/f${i}.txt`,
      entry: { path: "*.txt" },
      explicit: true,
      bytes,
      text,
      sha256: `${i}`.padStart(64, "0"),
      size: bytes.length,
      mtimeMs: 0,
    };
  });
}

/** Each file's render by `renderSoon`, and how many of them were promises. */
async function renderAll(
  files: SourceFile[],
  place: Omit<Parameters<typeof renderSoon>[1], "isFocus">,
  options: RenderOptions,
): Promise<{ renders: Render[]; promises: number }> {
  let promises = 0;
  const renders: Render[] = [];
  for (const file of files) {
    const render = renderSoon(file, { ...place, isFocus: false }, options);
    if (render instanceof Promise) promises++;
    renders.push(await render);
  }
  return { renders, promises };
}

Deno.test("a cache hit is given at once, not as a promise, with the miss's file and warnings", async () => {
  const root = await makeProject({ "slop.config.ts": `export default { files: ["*.txt"] };\n` });
  const config = await loadConfig({ cwd: root });
  const registry = createRegistry(defaultPlugins());
  const dir = join(await tempDir(), "cache");
  const files = sources(root);
  const told: string[] = [];
  const options = (cache: ReturnType<typeof openCache>): RenderOptions => ({
    cache,
    warn: (message) => told.push(message),
    complete: () => Promise.reject(new Error("no provider")),
  });
  const cold = openCache(dir, { pack: "project" });
  const first = await renderAll(files, { config, registry }, options(cold));
  await cold.flush();
  assert.equal(first.promises, files.length, "every miss renders");
  assert.ok(first.renders.every((r) => r.file.cache === "miss"));

  const warm = openCache(dir, { pack: "project" });
  const second = await renderAll(files, { config, registry }, options(warm));
  assert.equal(second.promises, 0, "no hit is a promise");
  assert.ok(second.renders.every((r) => r.file.cache === "hit"));
  const plain = (r: Render) => ({ ...r.file, cache: undefined, text: r.file.text });
  assert.deepEqual(second.renders.map(plain), first.renders.map(plain));
  assert.deepEqual(second.renders.map((r) => r.cacheKey), first.renders.map((r) => r.cacheKey));
  assert.deepEqual(second.renders.map((r) => r.warnings), first.renders.map((r) => r.warnings));

  // The stage gives the same files, in order, each told to `onFile` once.
  const third = openCache(dir, { pack: "project" });
  const seen: string[] = [];
  const out = await transformKept(files, config, registry, {
    ...options(third),
    onFile: (file) => seen.push(file.path),
  });
  assert.deepEqual(out.map((f) => f.path), files.map((f) => f.path));
  assert.deepEqual(seen.toSorted(), files.map((f) => f.path).toSorted());
  assert.deepEqual(out.map((f) => f.text), first.renders.map((r) => r.file.text));
});
