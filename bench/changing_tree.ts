/**
 * Builds of a git work tree that changes while they run: a loop rewrites its tracked files at
 * random sizes, removes them, and puts folders, FIFOs and links to `/` in their place, while
 * `slop build --stdout --json --format json` runs again and again in the same state dir (so the
 * warm builds, whose stat index knows the files, are changed under too). Each build must exit 0
 * without a crash report, and each rendered row's sha256 and size must be those of the text its
 * block shows: a file read half-changed is the file as it was read, never a text the manifest
 * does not describe. Prints each build's rows by status and reason, then `bad N`. See
 * bench/README.md, "Correctness hunt: the file system, git and processes".
 *
 * ```sh
 * deno run -A bench/changing_tree.ts                       # 8 builds
 * ROUNDS=5 ARGS='--budget 20000' deno run -A bench/changing_tree.ts
 * ```
 *
 * @module
 */

import { createHash } from "node:crypto";
import { join } from "node:path";

const CLI = new URL("../cli.ts", import.meta.url).pathname;
const FILES = 300;
const ROUNDS = Number(Deno.env.get("ROUNDS") ?? 8);
const ARGS = (Deno.env.get("ARGS") ?? "").split(" ").filter(Boolean);

/** A seeded generator, so that every run makes the same changes in the same order. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const text = (i: number, version: string, lines: number) => `x_${i} = '${version}'\n`.repeat(lines);

async function run(cmd: string, args: string[], cwd: string) {
  return await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" }).output();
}

/** A build's output, or undefined when it took over {@linkcode HUNG_MS} (it is killed). */
async function build(root: string): Promise<Deno.CommandOutput | undefined> {
  const args = ["run", "-A", CLI, "build", "--stdout", "--json", "--format", "json", ...ARGS];
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((done) => timer = setTimeout(() => done(undefined), HUNG_MS));
  const out = await Promise.race([child.output(), late]);
  clearTimeout(timer);
  if (!out) child.kill("SIGKILL");
  return out;
}

/** How long a build may take before it counts as hung (a build here takes seconds). */
const HUNG_MS = 120_000;

/** One change to a random file: rewritten, removed, or a folder, FIFO or link in its place. */
function change(root: string, next: () => number, k: number): void {
  const i = Math.floor(next() * FILES);
  const path = join(root, `f${i}.py`);
  try {
    Deno.removeSync(path, { recursive: true });
  } catch {
    // Removed already.
  }
  const op = Math.floor(next() * 6);
  try {
    if (op === 1) Deno.mkdirSync(path);
    else if (op === 2) Deno.symlinkSync("/", path);
    else if (op === 3) new Deno.Command("mkfifo", { args: [path] }).outputSync();
    else if (op > 3) Deno.writeTextFileSync(path, text(i, `v${k}`, 1 + Math.floor(next() * 4000)));
  } catch {
    // Made meanwhile by nothing else: this loop is the only writer.
  }
}

/** Build `ROUNDS` times while a child process changes the tree; print the bad builds' count. */
async function main(): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "slop_changing_" });
  for (let i = 0; i < FILES; i++) {
    Deno.writeTextFileSync(join(root, `f${i}.py`), text(i, "init", 50));
  }
  await run("git", ["init", "-q"], root);
  await run("git", ["add", "-A"], root);
  await run("git", ["-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "i"], root);

  // The changes run in a child process of their own, so that this one's builds are not paused.
  const loop = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", import.meta.filename!, "--loop", root],
    stdout: "null",
    stderr: "null",
  }).spawn();

  let bad = 0;
  try {
    for (let n = 0; n < ROUNDS; n++) {
      const out = await build(root);
      if (!out) {
        console.log(`build ${n}: killed after ${HUNG_MS / 1000} s (hung)`);
        bad++;
        continue;
      }
      const stderr = new TextDecoder().decode(out.stderr);
      if (out.code !== 0 || stderr.includes("internal error")) {
        console.log(`build ${n}: exit ${out.code}: ${stderr.slice(0, 500)}`);
        bad++;
        continue;
      }
      const { manifest, document } = JSON.parse(new TextDecoder().decode(out.stdout));
      const shown = new Map<string, string>();
      for (const block of JSON.parse(document).blocks) {
        if (block.path !== undefined) shown.set(block.path, block.content);
      }
      const tally = new Map<string, number>();
      for (const row of manifest.files) {
        const key = `${row.status}: ${(row.reason ?? "").slice(0, 40)}`;
        tally.set(key, (tally.get(key) ?? 0) + 1);
        if (row.status !== "rendered" || row.view !== "full") continue;
        const content = shown.get(row.path);
        const bytes = new TextEncoder().encode(content ?? "");
        const hash = createHash("sha256").update(bytes).digest("hex");
        if (content === undefined || hash !== row.sha256 || bytes.length !== row.bytes) {
          console.log(`build ${n}: "${row.path}" shows a text its row does not describe`);
          bad++;
        }
      }
      console.log(`build ${n}: ${JSON.stringify(Object.fromEntries(tally))}`);
    }
  } finally {
    loop.kill();
    await loop.status;
    await Deno.remove(root, { recursive: true });
  }
  console.log(`bad ${bad}`);
}

if (Deno.args[0] === "--loop") {
  const next = random(1);
  for (let k = 0;; k++) change(Deno.args[1], next, k);
} else {
  await main();
}
