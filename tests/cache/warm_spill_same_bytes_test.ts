// A warm build of a tree that spills (a big tree's builds: every text kept in the spill or the
// cache's pack, read back lazily) writes the same document and manifest bytes, but for the
// manifest's `output` and each file's `cache` mark, as a build without any cache of the same tree
// state, after each kind of change a warm build must notice: an edit, a rename, a delete, another
// view for a file, another version of a view mode, another config, another secret rule, and a
// racily clean file (same size and modification time, changed within the stat index's racy window).
// What a warm build takes from its last build instead of rendering, counting and hashing again
// (the stat index, the pack's kept texts, the last document's record) must be rebuilt exactly.
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  build,
  type BuildResult,
  defaultPlugins,
  loadConfig,
  speedLayer,
  type ViewModePlugin,
} from "../../mod.ts";
import { makeProject, tempDir, type Tree } from "../_helpers.ts";
import { RACY_MS, statIndexPath } from "../../accel/stat_index.ts";

const SECRET = "sk-or-v1-" + "a1b2c3d4".repeat(8);

/** A view mode whose rendering changes with its version (a version bump must render again). */
function tagged(version: string): ViewModePlugin {
  return {
    kind: "view-mode",
    name: "tagged",
    version,
    render: (file) => `# tagged v${version}\n${file.text}`,
  };
}

function config(options: { view?: string; rules?: string; defaultView?: string } = {}): string {
  const { view = "summary", rules = "{}", defaultView = "full" } = options;
  return `export default {
  files: ["src/**", "docs/**", "env.txt", { path: "src/m1.py", view: "${view}" }],
  defaultView: "${defaultView}",
  secrets: { rules: ${rules} },
};
`;
}

/** Files of about 2 KB (a kept render under 1 KB would stay in memory), every third not ASCII. */
function tree(): Tree {
  const out: Tree = { "slop.config.ts": config(), "env.txt": `KEY=${SECRET}\n` };
  const words = ["plain", "é ü ß — ‘quoted’", "日本語のテキスト", "emoji 🙂🚀 pairs"];
  for (let i = 0; i < 12; i++) {
    const word = i % 3 ? words[0] : words[1 + (i / 3) % 3];
    out[`src/m${i}.py`] = Array.from({ length: 60 }, (_, j) => `x${j} = "${word} ${i}"  # ${j}\n`)
      .join("") + `\n\ndef f${i}():\n    return ${i}\n`;
  }
  out["docs/guide.md"] = "# Guide\n\n" + "Install it, then run it.\n".repeat(60);
  return out;
}

/**
 * The stat index's record of `path` given the fingerprint `info` (as if the file had been written
 * within the clock tick the last build read it in), its hash left as recorded.
 */
async function stampLikeNow(
  root: string,
  state: string,
  path: string,
  info: Deno.FileInfo,
): Promise<void> {
  const loaded = await loadConfig({ cwd: root, stateDir: state, reload: true });
  const file = statIndexPath(loaded.cache.dir, loaded.root, loaded.configPath);
  const index = JSON.parse(await Deno.readTextFile(file));
  const at = index.paths.indexOf(path);
  assert.ok(at >= 0, `${path} recorded`);
  const stamp = [info.dev, info.ino, info.size, info.mtime!.getTime(), info.ctime!.getTime()];
  index.fields.splice(5 * at, 5, ...stamp);
  // Within the racy window: the last build began reading just after the file was written.
  assert.ok(index.readStart - RACY_MS <= info.mtime!.getTime(), "recorded racy");
  await Deno.writeTextFile(file, JSON.stringify(index));
}

/** One build with the speed layer, every text spilled (`spillAfter: 0`), or without any cache. */
async function buildAt(
  root: string,
  stateDir: string,
  options: { cache?: boolean; version?: string } = {},
): Promise<BuildResult> {
  const loaded = await loadConfig({ cwd: root, stateDir, reload: true });
  if (options.cache === false) loaded.cache.enabled = false;
  return await build(loaded, {
    builtins: [...defaultPlugins(), tagged(options.version ?? "1")],
    layer: speedLayer({ spillAfter: 0 }),
  });
}

/** The manifest's bytes as written, without its `output` and each file's `cache` mark. */
async function manifestBytes(result: BuildResult): Promise<string> {
  const manifest = JSON.parse(await Deno.readTextFile(result.output!.manifest));
  delete manifest.output;
  for (const file of manifest.files) delete file.cache;
  return JSON.stringify(manifest);
}

/**
 * A warm build of `root` on `state`, and a build without cache of the same tree from a copy of
 * the same order memory: the written documents' bytes and the manifests' the same.
 */
async function assertWarmSameAsFresh(
  root: string,
  state: string,
  options: { version?: string; step: string },
): Promise<BuildResult> {
  const warm = await buildAt(root, state, options);
  const fresh = await tempDir({ dir: root, prefix: ".fresh" });
  await Deno.mkdir(join(fresh, "order"), { recursive: true });
  await Deno.copyFile(join(state, "order", "context.json"), join(fresh, "order", "context.json"));
  const plain = await buildAt(root, fresh, { ...options, cache: false });
  const [a, b] = await Promise.all(
    [warm, plain].map((r) => Deno.readFile(r.output!.document)),
  );
  assert.ok(a.length === b.length && a.every((byte, i) => byte === b[i]), `${options.step}: bytes`);
  assert.equal(await manifestBytes(warm), await manifestBytes(plain), `${options.step}: manifest`);
  return warm;
}

Deno.test("a spilling warm build writes a build without cache's bytes after edits, renames, deletes, view, config and secret rule changes and a racily clean file", async () => {
  const root = await makeProject(tree());
  const state = join(root, ".state");
  // Files older than the racy window: the stat index trusts them, as a big tree's at rest.
  await new Promise((resolve) => setTimeout(resolve, RACY_MS + 1100));
  await buildAt(root, state);
  const warm = await assertWarmSameAsFresh(root, state, { step: "unchanged" });
  assert.ok(warm.files.filter((f) => f.cache === "hit").length >= 12, "renders taken from cache");
  const write = (path: string, text: string) => Deno.writeTextFile(join(root, path), text);
  await write("src/m4.py", "def edited():\n    return 'é'\n".repeat(40));
  await assertWarmSameAsFresh(root, state, { step: "edit" });
  await Deno.rename(join(root, "src/m5.py"), join(root, "src/moved.py"));
  await assertWarmSameAsFresh(root, state, { step: "rename" });
  await Deno.remove(join(root, "src/m6.py"));
  await assertWarmSameAsFresh(root, state, { step: "delete" });
  await write("slop.config.ts", config({ view: "tagged" }));
  await assertWarmSameAsFresh(root, state, { step: "another view" });
  await assertWarmSameAsFresh(root, state, { step: "another view mode version", version: "2" });
  await write("slop.config.ts", config({ view: "tagged", defaultView: "summary" }));
  await assertWarmSameAsFresh(root, state, { step: "another config", version: "2" });
  await write("slop.config.ts", config({ view: "tagged", rules: `{ plainWord: "Install it" }` }));
  const ruled = await assertWarmSameAsFresh(root, state, { step: "a secret rule", version: "2" });
  assert.match(ruled.document, /REDACTED:plainWord/);
  // Racily clean: changed again within the clock tick the last build read it in, so the stat index
  // holds the file's fingerprint as it is now (size, times, inode) with the hash of its old text.
  // The record's times are within the racy window of that build's read: the file is read again.
  const path = join(root, "src/m7.py");
  const text = await Deno.readTextFile(path);
  await Deno.writeTextFile(path, text.replace("plain 7", "plain 8"));
  await assertWarmSameAsFresh(root, state, { step: "recorded racy", version: "2" });
  await Deno.writeTextFile(path, text.replace("plain 7", "PLAIN 7"));
  await stampLikeNow(root, state, "src/m7.py", await Deno.stat(path));
  const racy = await assertWarmSameAsFresh(root, state, { step: "racily clean", version: "2" });
  assert.match(racy.document, /PLAIN 7/);
});
