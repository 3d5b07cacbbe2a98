/**
 * A seeded churn driver: a generated project in a real git repository, random batches of the
 * changes editors, git, formatters and build tools make, and after each batch a build through a
 * build server's code (in this process: `serverBuilds`, with its real file watcher, resident and
 * prepared builds) compared with a fresh cold build (no cache, a new state dir with the server's
 * order memory copied in: the order a project's history gave is part of its input).
 *
 * @module
 */

import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { childEnv, REPO, tempDir } from "../_helpers.ts";
import { type BuildRequest, serverBuilds } from "../../server/builds.ts";
import { runBuild } from "../../cli/build.ts";
import type { BuildFlags } from "../../cli/build.ts";
import { builtinPlugins } from "../../cli/_builtins.ts";
import { build, type BuildResult, loadConfig } from "../../mod.ts";

/** A seeded random source (mulberry32). */
export function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: T[]): T => items[Math.floor(next() * items.length)],
  };
}

export type Random = ReturnType<typeof seeded>;

/** The file `slop watch`'s churn edits in place after each batch (a modification, no new name). */
const MARKER = "src/zz_marker.ts";

const CONFIG = `export default { files: ["src/**", "docs/**", "*.md"] };\n`;

/** Run git in `cwd`; its failure is returned, not thrown (a stash pop may conflict). */
export async function git(cwd: string, ...args: string[]): Promise<boolean> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", ...args],
    cwd,
    stdout: "null",
    stderr: "null",
  }).output();
  return out.success;
}

/** A file's text for the generated project: differs by `tag`. */
function text(path: string, tag: string): string {
  if (path.endsWith(".py")) return `def f_${tag}():\n    return "${tag}"\n`;
  if (path.endsWith(".ts")) return `export const v_${tag} = "${tag}";\n`;
  return `# ${tag}\n\nText ${tag}.\n`;
}

/** The generated project: `files` source files, a branch `alt` that changes most of them. */
export async function churnProject(files = 12): Promise<string> {
  const root = await tempDir({ prefix: "slop_churn_" });
  const write = async (path: string, body: string) => {
    await Deno.mkdir(dirname(join(root, path)), { recursive: true });
    await Deno.writeTextFile(join(root, path), body);
  };
  await write("slop.config.ts", CONFIG);
  await write(".gitignore", ".slop/\n");
  await write("README.md", text("README.md", "readme"));
  // Edited in place by the `slop watch` churn after each batch: no operation picks it.
  await write(MARKER, "export const marker = 0;\n");
  const exts = [".py", ".ts", ".md"];
  for (let i = 0; i < files; i++) {
    const dir = i % 3 === 0 ? "src" : i % 3 === 1 ? "src/lib" : "docs";
    await write(`${dir}/f${i}${exts[i % 3]}`, text(exts[i % 3], `base${i}`));
  }
  await git(root, "init", "-q", "-b", "main");
  await git(root, "add", "-A");
  await git(root, "commit", "-qm", "base");
  await git(root, "checkout", "-qb", "alt");
  for (let i = 0; i < files; i += 1) {
    if (i % 4 === 3) continue;
    const dir = i % 3 === 0 ? "src" : i % 3 === 1 ? "src/lib" : "docs";
    await write(`${dir}/f${i}${exts[i % 3]}`, text(exts[i % 3], `alt${i}`));
  }
  await write("src/only_alt/x.ts", text(".ts", "onlyalt"));
  await Deno.remove(join(root, "docs/f2.md"));
  await git(root, "add", "-A");
  await git(root, "commit", "-qm", "alt");
  await git(root, "checkout", "-q", "main");
  return root;
}

/**
 * A checkout whose `.git` is a file, of a {@linkcode churnProject}: a `git worktree` (its git
 * folder in `<main>/.git/worktrees/`, its common folder `<main>/.git`), or a clone with its git
 * folder elsewhere, as a submodule's checkout has it. `gitDir` holds its index, `commonDir` its
 * `info/exclude`, `info/attributes` and `config`.
 */
export async function linkedCheckout(
  kind: "worktree" | "separate",
): Promise<{ root: string; gitDir: string; commonDir: string }> {
  const main = await churnProject();
  const root = join(await tempDir({ prefix: "slop_churn_wt_" }), "checkout");
  if (kind === "worktree") {
    assert.ok(await git(main, "worktree", "add", "-q", "-b", "wt", root));
    const gitDir = join(main, ".git", "worktrees", "checkout");
    // The worktree's own index, not the main checkout's.
    assert.ok((await Deno.stat(join(gitDir, "index"))).isFile);
    return { root, gitDir, commonDir: join(main, ".git") };
  }
  const gitDir = join(dirname(root), "modules", "checkout");
  await Deno.mkdir(dirname(gitDir));
  assert.ok(await git(main, "clone", "-q", "--separate-git-dir", gitDir, main, root));
  // Named relative to the checkout, as git writes it for a submodule.
  await Deno.writeTextFile(join(root, ".git"), "gitdir: ../modules/checkout\n");
  return { root, gitDir, commonDir: gitDir };
}

/**
 * Steps that change what git lists or marks, named as the churn scripts print them: the same in
 * every checkout, with `info` the folder of git's `info/attributes` for the project `root` (a
 * plain repository's `.git/info`, a linked checkout's common git folder's).
 */
export function listingSteps(info: (root: string) => string) {
  return {
    ignoreLib: scriptedOp(
      "ignore src/lib",
      (root) => Deno.writeTextFile(join(root, ".gitignore"), ".slop/\nsrc/lib/\n"),
    ),
    untrackLib: scriptedOp(
      "git rm --cached src/lib",
      (root) => git(root, "rm", "-rqf", "--cached", "src/lib"),
    ),
    trackLib: scriptedOp("git add -f src/lib", (root) => git(root, "add", "-f", "src/lib")),
    // git reads `info/attributes` once the listing holds a `.gitattributes`.
    gitattributes: scriptedOp(
      "a .gitattributes",
      (root) => Deno.writeTextFile(join(root, ".gitattributes"), "*.md text\n"),
    ),
    markBinary: scriptedOp(
      "mark .py binary",
      (root) => Deno.writeTextFile(join(info(root), "attributes"), "*.py binary\n"),
    ),
    unmarkBinary: scriptedOp("unmark .py", (root) => Deno.remove(join(info(root), "attributes"))),
  };
}

/**
 * Batches that change what git lists or marks only through git's folders, for a checkout whose
 * `.git` is a file: its index in `gitDir`, `info/exclude`, `info/attributes` in `commonDir`.
 */
export function linkedListingScript(
  { commonDir }: { commonDir: string },
): ChurnOp[][] {
  const exclude = join(commonDir, "info", "exclude");
  const steps = listingSteps(() => join(commonDir, "info"));
  return [
    [scriptedOp(
      "new untracked file",
      async (root) => {
        await Deno.writeTextFile(join(root, "src/u.py"), "U = 1\n");
        await Deno.writeTextFile(join(root, "src/notes.md"), "# N\n");
      },
    )],
    [scriptedOp("exclude it", async () => {
      await Deno.mkdir(join(commonDir, "info"), { recursive: true });
      await Deno.writeTextFile(exclude, "u.py\n");
    })],
    [scriptedOp("include it again", () => Deno.writeTextFile(exclude, ""))],
    [steps.ignoreLib],
    [steps.untrackLib],
    [steps.trackLib],
    [steps.gitattributes],
    [steps.markBinary],
    [steps.unmarkBinary],
    // An excludes file that git's config (in `commonDir`) names from now on, written before.
    [scriptedOp("core.excludesFile", async (root) => {
      await Deno.writeTextFile(join(commonDir, "more_excludes"), "*.md\n");
      await git(root, "config", "core.excludesFile", join(commonDir, "more_excludes"));
    })],
  ];
}

/** Every regular file and symlink under `root` (relative), outside `.git` and `.slop`. */
async function listFiles(root: string, dir = ""): Promise<{ files: string[]; dirs: string[] }> {
  const files: string[] = [];
  const dirs: string[] = [];
  for await (const entry of Deno.readDir(join(root, dir))) {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (!dir && (entry.name === ".git" || entry.name === ".slop")) continue;
    if (entry.isDirectory) {
      dirs.push(path);
      const inner = await listFiles(root, path);
      files.push(...inner.files);
      dirs.push(...inner.dirs);
    } else files.push(path);
  }
  return { files: files.sort(), dirs: dirs.sort() };
}

/** One churn operation: its name and what it does to the project at `root`. */
export interface ChurnOp {
  name: string;
  run(root: string, random: Random, tag: string): Promise<void>;
}

/** Write `body` to `path` as editors save: a temp file beside it, renamed over it. */
async function atomicWrite(path: string, body: string): Promise<void> {
  const temp = join(dirname(path), `.${path.split("/").pop()}.tmp~`);
  await Deno.writeTextFile(temp, body);
  await Deno.rename(temp, path);
}

async function someFile(root: string, random: Random): Promise<string | undefined> {
  const { files } = await listFiles(root);
  const plain = [];
  for (const f of files) {
    if (f === "slop.config.ts" || f === ".gitignore" || f === MARKER) continue;
    const info = await Deno.lstat(join(root, f)).catch(() => undefined);
    if (info?.isFile) plain.push(f);
  }
  return plain.length ? random.pick(plain) : undefined;
}

async function someDir(root: string, random: Random): Promise<string> {
  const { dirs } = await listFiles(root);
  const under = dirs.filter((d) => d.startsWith("src") || d.startsWith("docs"));
  return under.length ? random.pick(under) : "src";
}

/** The operations the driver picks from. */
export const OPS: ChurnOp[] = [
  {
    name: "edit in place",
    async run(root, random, tag) {
      const f = await someFile(root, random);
      if (f) await Deno.writeTextFile(join(root, f), `// ${tag}\n`, { append: true });
    },
  },
  {
    name: "atomic save",
    async run(root, random, tag) {
      const f = await someFile(root, random);
      if (f) await atomicWrite(join(root, f), text(f, tag));
    },
  },
  {
    name: "create file",
    async run(root, random, tag) {
      const dir = await someDir(root, random);
      const ext = random.pick([".py", ".ts", ".md"]);
      await Deno.mkdir(join(root, dir), { recursive: true });
      await Deno.writeTextFile(join(root, dir, `n_${tag}${ext}`), text(ext, tag));
    },
  },
  {
    name: "delete file",
    async run(root, random) {
      const f = await someFile(root, random);
      if (f) await Deno.remove(join(root, f));
    },
  },
  {
    name: "create folder",
    async run(root, random, tag) {
      const dir = join(root, random.pick(["src", "docs"]), `d_${tag}`, "deep");
      await Deno.mkdir(dir, { recursive: true });
      for (let i = 0; i < 3; i++) {
        await Deno.writeTextFile(join(dir, `g${i}.ts`), text(".ts", tag + i));
      }
    },
  },
  {
    name: "delete folder",
    async run(root, random) {
      const dir = await someDir(root, random);
      if (dir !== "src" && dir !== "docs") await Deno.remove(join(root, dir), { recursive: true });
    },
  },
  {
    name: "rename file",
    async run(root, random, tag) {
      const f = await someFile(root, random);
      if (f) {
        await Deno.rename(join(root, f), join(root, dirname(f), `r_${tag}_${f.split("/").pop()}`));
      }
    },
  },
  {
    name: "rename folder",
    async run(root, random, tag) {
      const dir = await someDir(root, random);
      if (dir === "src" || dir === "docs") return;
      await Deno.rename(join(root, dir), join(root, dirname(dir), `m_${tag}`));
    },
  },
  {
    name: "move folder away and back",
    async run(root, random) {
      const dir = await someDir(root, random);
      const away = `${root}.away`;
      await Deno.rename(join(root, dir), away);
      await new Promise((resolve) => setTimeout(resolve, 20));
      await Deno.rename(away, join(root, dir));
    },
  },
  {
    name: "switch branch",
    async run(root) {
      await git(root, "add", "-A");
      await git(root, "commit", "-qm", "wip", "--allow-empty");
      const alt = await git(root, "rev-parse", "--verify", "-q", "refs/heads/alt");
      const onMain = (await Deno.readTextFile(join(root, ".git/HEAD"))).includes("main");
      if (alt) await git(root, "checkout", "-q", onMain ? "alt" : "main");
    },
  },
  {
    name: "git stash and pop",
    async run(root, random, tag) {
      const f = await someFile(root, random);
      if (f) await Deno.writeTextFile(join(root, f), text(f, tag));
      await git(root, "add", "-A");
      if (await git(root, "stash", "-q")) {
        if (random.next() < 0.7 && !(await git(root, "stash", "pop", "-q"))) {
          await git(root, "checkout", "-q", "--", ".");
          await git(root, "stash", "drop", "-q");
        }
      }
    },
  },
  {
    name: "touch",
    async run(root, random) {
      const f = await someFile(root, random);
      if (f) await Deno.utime(join(root, f), new Date(), new Date());
    },
  },
  {
    name: "same-size edit, same mtime",
    async run(root, random) {
      const f = await someFile(root, random);
      if (!f) return;
      const path = join(root, f);
      const info = await Deno.stat(path);
      const body = await Deno.readTextFile(path);
      if (!body.length) return;
      const at = random.int(body.length);
      const swapped = body.slice(0, at) + (body[at] === "Q" ? "Z" : "Q") + body.slice(at + 1);
      if (new TextEncoder().encode(swapped).length !== info.size) return;
      await Deno.writeTextFile(path, swapped);
      await Deno.utime(path, info.atime ?? new Date(), info.mtime!);
    },
  },
  {
    name: "file becomes symlink",
    async run(root, random) {
      const f = await someFile(root, random);
      const g = await someFile(root, random);
      if (!f || !g || f === g) return;
      await Deno.remove(join(root, f));
      await Deno.symlink(join(root, g), join(root, f));
    },
  },
  {
    name: "file becomes folder",
    async run(root, random, tag) {
      const f = await someFile(root, random);
      if (!f) return;
      await Deno.remove(join(root, f));
      await Deno.mkdir(join(root, f));
      await Deno.writeTextFile(join(root, f, "inner.md"), text(".md", tag));
    },
  },
  {
    name: "gitignore hides or shows",
    async run(root, random) {
      const lines = [".slop/\n", "src/lib/\n", "*.md\n", "docs/\n", "!README.md\n"];
      const body = ".slop/\n" + lines.filter(() => random.next() < 0.4).join("");
      await atomicWrite(join(root, ".gitignore"), body);
    },
  },
  {
    name: "git add -f or git rm --cached",
    async run(root, random) {
      const f = await someFile(root, random);
      if (f && random.next() < 0.5) await git(root, "add", "-f", "--", f);
      else if (f) await git(root, "rm", "-q", "--cached", "--", f);
    },
  },
  {
    name: "edit .git/info/exclude",
    async run(root, random) {
      const lines = ["src/lib/\n", "*.py\n", "docs/\n"];
      await Deno.mkdir(join(root, ".git/info"), { recursive: true });
      await Deno.writeTextFile(
        join(root, ".git/info/exclude"),
        lines.filter(() => random.next() < 0.4).join(""),
      );
    },
  },
  {
    name: "config invalid then valid",
    async run(root, random) {
      await Deno.writeTextFile(join(root, "slop.config.ts"), `export default { files: [ ;\n`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const files = random.pick([
        `["src/**", "docs/**", "*.md"]`,
        `["src/**"]`,
        `["**/*.ts", "docs/**"]`,
      ]);
      await atomicWrite(join(root, "slop.config.ts"), `export default { files: ${files} };\n`);
    },
  },
  {
    name: "delete and re-create tree",
    async run(root) {
      const copy = `${root}.copy`;
      await new Deno.Command("cp", { args: ["-a", root, copy], cwd: "/" }).output();
      // A watcher may write its output meanwhile (and make the folder again): removed again
      // until the copy takes its place.
      for (let i = 0; i < 20; i++) {
        await Deno.remove(root, { recursive: true }).catch(() => {});
        if (await Deno.rename(copy, root).then(() => true, () => false)) break;
      }
    },
  },
];

/** The newest document and manifest the server wrote in `root`. */
async function newestOutput(root: string) {
  const names: string[] = [];
  for await (const e of Deno.readDir(join(root, ".slop/out"))) {
    if (/^context_\d+\.md$/.test(e.name)) names.push(e.name);
  }
  const last = names.sort().pop()!;
  return {
    document: await Deno.readTextFile(join(root, ".slop/out", last)),
    manifest: JSON.parse(
      await Deno.readTextFile(join(root, ".slop/out", last.replace(/md$/, "json"))),
    ),
  };
}

/** A cold build of `root`: no cache, a new state dir with the server's order memory. */
export async function coldBuild(root: string): Promise<BuildResult | string> {
  const fresh = await tempDir({ prefix: "slop_cold_" });
  await Deno.mkdir(join(fresh, "order"), { recursive: true });
  try {
    await Deno.copyFile(join(root, ".slop/order/context.json"), join(fresh, "order/context.json"));
  } catch {
    // No order memory yet.
  }
  try {
    const config = await loadConfig({ cwd: root, stateDir: fresh, reload: true });
    config.cache.enabled = false;
    return await build(config, { builtins: builtinPlugins(), write: false });
  } catch (error) {
    return `error: ${error instanceof Error ? error.message.split("\n")[0] : error}`;
  }
}

/** A build server's builds, in this process, with a frame sink for a connection. */
export function churnServer(runtime: string) {
  const builds = serverBuilds({
    run: (request, options) => runBuild(request.paths, request.flags as BuildFlags, options),
    builtins: builtinPlugins(),
    sources: [],
    watch: { dir: runtime, id: "churn" },
    version: "churn",
    onStale: () => {},
  });
  const ask = async (root: string): Promise<{ code: number; stderr: string }> => {
    const frames: Uint8Array[] = [];
    const conn = {
      write: (p: Uint8Array) => (frames.push(p.slice()), Promise.resolve(p.length)),
    } as unknown as Deno.UnixConn;
    const request: BuildRequest = {
      type: "build",
      version: "churn",
      paths: [],
      flags: { quiet: true },
      cwd: root,
      env: Deno.env.toObject(),
      stderrIsTerminal: false,
    };
    await builds.run(conn, request);
    const all = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
    let at = 0;
    for (const f of frames) (all.set(f, at), at += f.length);
    let stderr = "";
    let code = -1;
    for (let i = 0; i < all.length;) {
      const kind = all[i];
      const length = new DataView(all.buffer, i + 1, 4).getUint32(0);
      const data = new TextDecoder().decode(all.subarray(i + 5, i + 5 + length));
      if (kind === 2) stderr += data;
      if (kind === 0) code = JSON.parse(data).code ?? code;
      i += 5 + length;
    }
    return { code, stderr };
  };
  return { builds, ask };
}

/** What one seed's churn did: the operations of each batch. */
export interface ChurnLog {
  batches: string[][];
}

/**
 * One batch on the project at `root`: the operations given, or 1 to `perBatch` picked at random
 * from `ops`; each is tagged `TAGiN`. Gives their names.
 */
async function runBatch(
  root: string,
  random: Random,
  { ops, perBatch, batch }: { ops: ChurnOp[]; perBatch: number; batch?: ChurnOp[] },
  tag: string,
): Promise<string[]> {
  const names: string[] = [];
  const count = batch ? batch.length : 1 + random.int(perBatch);
  for (let i = 0; i < count; i++) {
    const op = batch ? batch[i] : random.pick(ops);
    names.push(op.name);
    await op.run(root, random, `${tag}i${i}`);
  }
  return names;
}

/**
 * An operation for a scripted batch: `run` on the project's root, whatever it gives.
 *
 * @example
 * ```ts
 * scriptedOp("git add -f src/lib", (root) => git(root, "add", "-f", "src/lib"));
 * ```
 */
export function scriptedOp(name: string, run: (root: string) => Promise<unknown>): ChurnOp {
  return { name, run: async (root: string) => void await run(root) };
}

/** How many batches of how many operations, which operations, or the batches themselves. */
export interface ChurnOptions {
  batches?: number;
  perBatch?: number;
  ops?: ChurnOp[];
  /** Batches given, instead of picked at random. */
  script?: ChurnOp[][];
  /** Makes the project (the checkout to build); {@linkcode churnProject} by default. */
  project?: () => Promise<string>;
}

/**
 * Run `batches` random batches of up to `perBatch` operations on a new project, each followed by
 * a server build compared with a cold build; sometimes a prepare runs between batch and build.
 */
export async function churn(
  seed: number,
  { batches = 6, perBatch = 4, ops = OPS, script, project = churnProject }: ChurnOptions = {},
): Promise<ChurnLog> {
  const random = seeded(seed);
  const root = await project();
  if (script) batches = script.length;
  const runtime = await tempDir({ prefix: "slop_churn_rt_" });
  const { builds, ask } = churnServer(runtime);
  const log: ChurnLog = { batches: [] };
  try {
    await compare(root, ask, `seed ${seed}, first build`, () => JSON.stringify(builds.stats()));
    for (let b = 0; b < batches; b++) {
      // The server's builds run in the project's folder, which an operation may remove.
      Deno.chdir(runtime);
      const names = await runBatch(
        root,
        random,
        { ops, perBatch, batch: script?.[b] },
        `s${seed}b${b}`,
      );
      log.batches.push(names);
      if (Deno.env.get("CHURN_VERBOSE")) console.log(b, names.join(", "));
      // Events arrive after the changes; a prepare may run on them before the build is asked.
      await new Promise((resolve) => setTimeout(resolve, 30));
      const prepared = random.next() < 0.5 && !Deno.env.get("CHURN_NOPREP");
      if (prepared) await builds.prepare();
      await compare(
        root,
        ask,
        `seed ${seed}, batch ${b}: ${names.join(", ")}${prepared ? " (prepared)" : ""}`,
        () => JSON.stringify(builds.stats()),
      );
    }
  } finally {
    // Back to the repository, not to a folder read before: another file may have moved the
    // process into one of its temp folders meanwhile, which goes when that file ends.
    Deno.chdir(REPO);
    await builds.close();
  }
  return log;
}

async function compare(
  root: string,
  ask: (root: string) => Promise<{ code: number; stderr: string }>,
  label: string,
  stats: () => string = () => "",
): Promise<void> {
  const served = await ask(root);
  const what = `${label} ${stats()}`;
  const cold = await coldBuild(root);
  if (typeof cold === "string") {
    assert.notEqual(
      served.code,
      0,
      `${what}: the server built where a cold build failed (${cold})`,
    );
    return;
  }
  assert.equal(served.code, 0, `${what}: ${served.stderr}`);
  const out = await newestOutput(root);
  assert.equal(out.document, cold.document, `${what}: the document`);
  const unmarked = (files: Array<Record<string, unknown>>) => files.map(({ cache: _, ...f }) => f);
  assert.deepEqual(out.manifest.blocks, cold.manifest.blocks, `${what}: the blocks`);
  assert.deepEqual(out.manifest.total, cold.manifest.total, `${what}: the total`);
  assert.deepEqual(
    unmarked(out.manifest.files),
    unmarked(cold.manifest.files as never),
    `${what}: the files`,
  );
}

/**
 * The churn through `slop watch`: after each batch a marker file is written, and once the newest
 * output shows it (every change before it was seen), that output is compared with a cold build.
 */
export async function watchChurn(
  seed: number,
  { batches = 4, perBatch = 4, ops = OPS, script, project = churnProject }: ChurnOptions = {},
): Promise<ChurnLog> {
  const random = seeded(seed);
  const root = await project();
  if (script) batches = script.length;
  const child = spawnWatch(root, "piped");
  let said = "";
  const drain = (stream: ReadableStream<Uint8Array>) =>
    stream.pipeThrough(new TextDecoderStream()).pipeTo(
      new WritableStream({ write: (chunk) => void (said += chunk) }),
    );
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  // Whether slop watch is still running, for a failure's message (nothing else reads it).
  let ended = "";
  child.status.then((status) => (ended = `\n(slop watch exited with code ${status.code})`));
  const told = () => said + ended;
  const log: ChurnLog = { batches: [] };
  try {
    await showing(root, "watching", told);
    for (let b = 0; b < batches; b++) {
      const names = await runBatch(
        root,
        random,
        { ops, perBatch, batch: script?.[b] },
        `w${seed}b${b}`,
      );
      log.batches.push(names);
      const marker = `marker_${seed}_${b}`;
      // Edited in place, a .ts file under src (every config and ignore file written lists it):
      // its rebuild lists the files again only if another change says it must.
      await Deno.writeTextFile(join(root, MARKER), `export const marker = "${marker}";\n`);
      const what = `seed ${seed}, batch ${b}: ${names.join(", ")}`;
      await showing(root, marker, () => `${what}\n${told()}`);
      // A rebuild that began while the batch ran may show the marker but not every change (a
      // build asked for while files change): once slop watch is quiet, the marker is edited
      // again, and the rebuild that shows that edit, once quiet again, must.
      await quiet(root, () => said);
      await Deno.writeTextFile(join(root, MARKER), `export const marker = "${marker}_again";\n`);
      await showing(root, `${marker}_again`, () => `${what}\n${told()}`);
      const document = await quiet(root, () => said);
      const cold = await coldBuild(root);
      const expected = typeof cold === "string" ? cold : cold.document;
      assert.equal(document, expected, `${what}: the document\n${said}`);
    }
  } finally {
    try {
      child.kill("SIGINT");
    } catch {
      // Ended already (the assertion that failed says what it printed).
    }
    await child.status;
    await drained.catch(() => {});
  }
  return log;
}

/** The newest output once `said()` has not grown for 500 ms (ten debounce times). */
async function quiet(root: string, said: () => string): Promise<string> {
  let last = said().length;
  for (let calm = 0; calm < 20;) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    calm = said().length === last ? calm + 1 : 0;
    last = said().length;
  }
  // A build may be between its document and its manifest (a loaded machine can pause it longer
  // than the calm above): wait for the manifest, 60 s at most.
  for (let i = 0;; i++) {
    const out = await newestOutput(root).catch((error) => {
      if (i >= 2400) throw error;
    });
    if (out) return out.document;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The newest output once it contains `text` (or `said()` does, for "watching"); 60 s at most. */
async function showing(root: string, text: string, said: () => string): Promise<string> {
  for (let i = 0; i < 2400; i++) {
    if (text === "watching" && said().includes("watching for changes")) return "";
    const out = await newestOutput(root).catch(() => undefined);
    if (out && text !== "watching" && out.document.includes(text)) {
      // The build that shows it may still be renaming its manifest: the document is enough.
      return out.document;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const names = (dir: string) => {
    try {
      return [...Deno.readDirSync(join(root, dir))].map((e) => e.name).sort().join(" ");
    } catch (error) {
      return String(error);
    }
  };
  throw new Error(
    `slop watch never showed "${text}" (the folder holds ${names("")}; its outputs ${
      names(".slop/out")
    }):\n${said()}`,
  );
}

/** `slop watch --debounce 50` started in `root`, its stdout piped. */
export function spawnWatch(root: string, stderr: "piped" | "null"): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", join(REPO, "cli.ts"), "watch", "--debounce", "50"],
    cwd: root,
    clearEnv: true,
    env: childEnv(),
    stdout: "piped",
    stderr,
  }).spawn();
}
