// The memo of renders a resident keeps (`accel/kept_renders.ts`) keys each file by short numbers
// for its entry's values and its view modes: a long-running process (the build server, `slop mcp`)
// loading configs with ever new values holds a bounded number of them.
import assert from "node:assert/strict";
import { defaultPlugins, loadConfig } from "../../mod.ts";
import { createRegistry } from "../../pipeline/registry.ts";
import { keptNumbers, type RenderedMemo, transformKept } from "../../accel/kept_renders.ts";
import type { SourceFile } from "../../pipeline/types.ts";
import { makeProject } from "../_helpers.ts";

Deno.test("a resident's memo keys hold a bounded count of entry values, however many configs", async () => {
  const root = await makeProject({ "slop.config.ts": `export default { files: ["a.txt"] };\n` });
  const config = await loadConfig({ cwd: root });
  const registry = createRegistry(defaultPlugins());
  const memo = new Map<string, RenderedMemo>();
  const rendered = {
    get: (k: string) => memo.get(k),
    set: (k: string, v: RenderedMemo) => void memo.set(k, v),
  };
  const text = "hello\n";
  const bytes = new TextEncoder().encode(text);
  // As many configs as a server sees in a long life, each file's entry with values of its own.
  const counts: number[] = [];
  for (let round = 0; round < 4; round++) {
    const files: SourceFile[] = Array.from({ length: 2500 }, (_, i) => ({
      path: `f${i}.txt`,
      absPath: `${root}/f${i}.txt`,
      entry: { path: `f${i}.txt`, maxBytes: 1_000_000 + round * 2500 + i },
      explicit: true,
      bytes,
      text,
      sha256: "0".repeat(64),
      size: bytes.length,
      mtimeMs: 0,
    }));
    memo.clear(); // the memo itself keeps two builds' renders
    await transformKept(files, config, registry, {
      rendered,
      warn: () => {},
      complete: () => Promise.reject(new Error("no provider")),
    });
    counts.push(keptNumbers());
  }
  assert.ok(counts[3] <= counts[1], `numbers held after each round: ${counts.join(", ")}`);
});
