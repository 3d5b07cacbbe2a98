/**
 * The incremental paths against a cold build, over a real history. Checks out each of a
 * repository's last N first-parent commits, oldest first, into one working folder (files change in
 * place, as a user's do, deletions too), and after each builds it the ways slop is run: `warm`, the
 * CLI with its state dir kept (content-hash cache, stat index, packs, order memory); `server`,
 * `slop build --server` (one build server for the folder, every config through it); and `watch`,
 * `slop watch` left running (full view only). Each is compared with a cold CLI build in a fresh
 * state dir that holds only a copy of the order memory the build started from (the memory decides
 * the order by design; everything else must not matter): the document's bytes, the manifest
 * (without `output` and each file's `cache`, which say where and how, not what) and the order
 * memory written after. Configs: `full` (zero-config), `skeleton` (`defaultView: "skeleton"`) and
 * `task` (zero-config with `--budget 32000 --task "<commit subject>"`). See bench/README.md,
 * "Incremental builds against cold ones on real histories".
 *
 * ```sh
 * deno run -A bench/replay_oracle.ts --repo /work/.mirror/pallets+flask/repo --n 30
 * deno run -A bench/replay_oracle.ts --repo DIR --rev REV --n 40 --configs full,skeleton,task --modes warm,server,watch
 * ```
 *
 * Prints one JSON line per commit (the differences, if any) and a summary; a difference's files
 * (both documents, manifests and memories) are kept under `<work>/diff/`.
 *
 * @module
 */

import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";

const CLI = new URL("../cli.ts", import.meta.url).pathname;
const CONFIGS = ["full", "skeleton", "task"] as const;
const MODES = ["warm", "server", "watch"] as const;
type Config = typeof CONFIGS[number];
type Mode = typeof MODES[number];

/** Parsed command line. */
interface Args {
  repo: string;
  /** The commit whose first-parent history is replayed. @default {"HEAD"} */
  rev: string;
  /** Commits replayed. @default {30} */
  n: number;
  configs: Config[];
  modes: Mode[];
  /** Where the clone and state dirs go (kept). @default {a new temp dir} */
  work?: string;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { repo: "", rev: "HEAD", n: 30, configs: [...CONFIGS], modes: [...MODES] };
  for (let i = 0; i < argv.length; i++) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === "--repo") args.repo = value;
    else if (flag === "--rev") args.rev = value;
    else if (flag === "--n") args.n = Number(value);
    else if (flag === "--configs") args.configs = value.split(",") as Config[];
    else if (flag === "--modes") args.modes = value.split(",") as Mode[];
    else if (flag === "--work") args.work = value;
    else throw new Error(`Unknown argument "${flag}"`);
    i++;
  }
  if (!args.repo) throw new Error("Usage: deno run -A bench/replay_oracle.ts --repo <git dir>");
  return args;
}

/** `git` in `cwd`; its stdout. */
async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  if (out.code !== 0) {
    throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout);
}

/** The environment of every slop run: servers in a folder of this replay's own, not on CI. */
function slopEnv(work: string): Record<string, string> {
  return { XDG_RUNTIME_DIR: join(work, "run"), CI: "", NO_COLOR: "1" };
}

/** One CLI run in `cwd`; throws with its stderr when it fails. */
async function slop(cwd: string, work: string, args: string[]): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, ...args],
    cwd,
    env: slopEnv(work),
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (out.code !== 0) {
    throw new Error(
      `slop ${args.join(" ")}: ${new TextDecoder().decode(out.stderr).slice(0, 800)}`,
    );
  }
}

/** The state that decides a build's output by design: the order and budget memories. */
const MEMORY = ["order", "budget"];

/** A state dir's memory files, by `folder/name`; empty when there are none. */
function readMemory(state: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const folder of MEMORY) {
    try {
      for (const entry of Deno.readDirSync(join(state, folder))) {
        const path = join(state, folder, entry.name);
        if (entry.isFile) files[`${folder}/${entry.name}`] = Deno.readTextFileSync(path);
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return files;
}

/** A build's outcome as compared: its document, manifest and the memory after it. */
interface Outcome {
  document: string;
  manifest: string;
  memory: Record<string, string>;
}

/** The newest numbered output of a state dir, with the order memory. */
function readOutcome(state: string): Outcome {
  const out = join(state, "out");
  const names = [...Deno.readDirSync(out)].map((e) => e.name).filter((n) =>
    /^context_\d+\.md$/.test(n)
  ).sort((a, b) => Number(a.match(/\d+/)![0]) - Number(b.match(/\d+/)![0]));
  const last = names.at(-1);
  if (!last) throw new Error(`No output in "${out}"`);
  const document = Deno.readTextFileSync(join(out, last));
  const manifest = JSON.parse(Deno.readTextFileSync(join(out, last.replace(/\.md$/, ".json"))));
  delete manifest.output;
  for (const file of manifest.files ?? []) delete file.cache;
  return {
    document,
    manifest: JSON.stringify(manifest, null, 1),
    memory: readMemory(state),
  };
}

/** The build arguments of a config at a commit. */
function configArgs(config: Config, work: string, subject: string): string[] {
  if (config === "skeleton") return ["-c", join(work, "skeleton.config.ts")];
  if (config === "task") return ["--budget", "32000", "--task", subject];
  return [];
}

/** What differs between a build and the cold one (empty when nothing does). */
function differences(got: Outcome, cold: Outcome): string[] {
  const found: string[] = [];
  if (got.document !== cold.document) {
    let at = 0;
    while (got.document[at] === cold.document[at]) at++;
    const heading = cold.document.slice(0, at).lastIndexOf("\n### ");
    const where = cold.document.slice(heading + 1, cold.document.indexOf("\n", heading + 1));
    found.push(`document differs at byte ${at} (in "${where}")`);
  }
  if (got.manifest !== cold.manifest) found.push("manifest differs");
  return found;
}

/** Keep both sides of a difference for a look. */
function keepDiff(work: string, label: string, got: Outcome, cold: Outcome): void {
  const dir = join(work, "diff", label);
  Deno.mkdirSync(dir, { recursive: true });
  for (const [side, outcome] of [["got", got], ["cold", cold]] as const) {
    Deno.writeTextFileSync(join(dir, `${side}.md`), outcome.document);
    Deno.writeTextFileSync(join(dir, `${side}.json`), outcome.manifest);
    Deno.writeTextFileSync(join(dir, `${side}.memory.json`), JSON.stringify(outcome.memory));
  }
}

/** A cold build: a fresh state dir with only `order` in it. */
async function coldBuild(
  tree: string,
  work: string,
  args: string[],
  memory: Record<string, string>,
): Promise<Outcome> {
  const state = await Deno.makeTempDir({ dir: work, prefix: "cold_" });
  for (const [name, text] of Object.entries(memory)) {
    Deno.mkdirSync(join(state, name, ".."), { recursive: true });
    Deno.writeTextFileSync(join(state, name), text);
  }
  await slop(tree, work, ["build", "-q", "--no-server", "--state-dir", state, ...args]);
  const outcome = readOutcome(state);
  await Deno.remove(state, { recursive: true });
  return outcome;
}

/** `slop watch` left running in the tree, full view, its own state dir. */
function startWatch(tree: string, work: string) {
  const state = join(work, "state_watch");
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, "watch", "--state-dir", state, "--debounce", "100"],
    cwd: tree,
    env: slopEnv(work),
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let lines = 0;
  let last = Date.now();
  const read = async (stream: ReadableStream<Uint8Array>, count: boolean) => {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      if (count) lines += chunk.split("\n").filter((l) => / built /.test(l)).length;
      last = Date.now();
    }
  };
  void read(child.stdout, true);
  void read(child.stderr, false);
  /** Wait until a build came after `before` lines and nothing was printed for `quiet` ms. */
  const settle = async (before: number, quiet = 2000) => {
    for (const end = Date.now() + 120_000; Date.now() < end;) {
      if (lines > before && Date.now() - last > quiet) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error("slop watch did not settle in 120 s");
  };
  return { state, child, settle, lines: () => lines };
}

/**
 * The memory each mode's state dir should hold after its last build (the cold build's), checked
 * before its next build: a build server writes it after it answers.
 */
const expected = new Map<string, Record<string, string>>();

/** One config's builds at one commit: each mode against a cold build from the same memory. */
async function checkConfig(
  tree: string,
  work: string,
  config: Config,
  args: string[],
  modes: Mode[],
): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  const colds = new Map<string, Outcome>();
  for (const mode of modes.filter((m) => m !== "watch")) {
    const label = `${mode}/${config}`;
    const state = join(work, `state_${mode}_${config}`);
    const before = readMemory(state);
    const diff = isDeepStrictEqual(before, expected.get(label) ?? {}) ? [] : ["memory differs"];
    const flags = mode === "server" ? ["--server"] : ["--no-server"];
    await slop(tree, work, ["build", "-q", ...flags, "--state-dir", state, ...args]);
    const got = readOutcome(state);
    const key = JSON.stringify(before);
    if (!colds.has(key)) colds.set(key, await coldBuild(tree, work, args, before));
    const cold = colds.get(key)!;
    expected.set(label, cold.memory);
    diff.push(...differences(got, cold));
    if (diff.length) {
      found[label] = diff;
      keepDiff(work, `${Date.now()}_${mode}_${config}`, got, cold);
    }
  }
  return found;
}

/** The watch's last output against a cold build from the memory it wrote (a fixpoint). */
async function checkWatch(tree: string, work: string, state: string) {
  const got = readOutcome(state);
  const cold = await coldBuild(tree, work, [], got.memory);
  const diff = differences(got, cold);
  if (!isDeepStrictEqual(got.memory, cold.memory)) diff.push("memory differs");
  if (diff.length) keepDiff(work, `${Date.now()}_watch_full`, got, cold);
  return diff;
}

async function replay(args: Args): Promise<void> {
  const work = args.work ?? await Deno.makeTempDir({ prefix: "slop_replay_" });
  const tree = join(work, "tree");
  Deno.mkdirSync(join(work, "run"), { recursive: true });
  await git(work, "clone", "-q", "--shared", "--no-checkout", args.repo, tree);
  Deno.writeTextFileSync(
    join(work, "skeleton.config.ts"),
    `export default { root: ${JSON.stringify(tree)}, defaultView: "skeleton" };\n`,
  );
  const log = await git(
    tree,
    "log",
    "--first-parent",
    "--reverse",
    "-n",
    String(args.n),
    "--format=%H %s",
    args.rev,
  );
  const commits = log.trim().split("\n").map((line) => [line.slice(0, 40), line.slice(41)]);
  let watch: ReturnType<typeof startWatch> | undefined;
  let diffs = 0;
  for (const [index, [sha, subject]] of commits.entries()) {
    const seen = watch?.lines() ?? 0;
    await git(tree, "checkout", "-q", "-f", "--no-recurse-submodules", sha);
    if (args.modes.includes("watch") && !watch) watch = startWatch(tree, work);
    const found: Record<string, string[]> = {};
    if (watch) {
      await watch.settle(seen);
      const diff = await checkWatch(tree, work, watch.state);
      if (diff.length) found["watch/full"] = diff;
    }
    for (const config of args.configs) {
      Object.assign(
        found,
        await checkConfig(tree, work, config, configArgs(config, work, subject), args.modes),
      );
    }
    diffs += Object.keys(found).length;
    console.log(
      JSON.stringify({ index, sha: sha.slice(0, 12), subject: subject.slice(0, 60), found }),
    );
  }
  if (watch) {
    watch.child.kill("SIGINT");
    await watch.child.status;
  }
  if (args.modes.includes("server")) await slop(tree, work, ["server", "stop", "--all", "--quiet"]);
  console.log(
    JSON.stringify({ repo: args.repo, commits: commits.length, differences: diffs, work }),
  );
}

if (import.meta.main) await replay(parseArgs(Deno.args));
