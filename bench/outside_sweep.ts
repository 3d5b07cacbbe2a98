/**
 * The outside sweep: slop on trees nobody here chose. For each mirrored repository under
 * /work/.mirror (smallest first), `bench/_outside_tree.ts` clones it twice, plants ignored files
 * and credentials, and builds it in-process with the command line's functions: zero config (cold,
 * warm and in the other copy), `defaultView: "skeleton"` (both copies), `--budget 32000`,
 * `--budget 8000 --task` with each of the last two commit subjects (and the first again in the
 * other copy), `slop payload` for each provider, `slop check --update` then `slop check`. It checks
 * that every build succeeds or fails with a short message (no stack, no crash, no hang over the
 * limit); that the two copies and the cold and warm builds give the same document (and manifest);
 * that budgets hold by slop's own count; that the manifest lists every file git lists once
 * (rendered + skipped + error = resolved), each rendered file has its one heading and every fence
 * closes; that the two task builds share their stable prefix; that the document holds no text of
 * an ignored file, no planted credential, no key shape and no absolute path of the work folder;
 * that `check` passes after `check --update`. Prints each failure as a JSON line, then a count by
 * check. See bench/README.md, "Outside sweep (nineteenth session)".
 *
 * ```sh
 * deno run -A bench/outside_sweep.ts                       # every mirror, two at a time
 * deno run -A bench/outside_sweep.ts --only pallets+click,koajs+koa
 * deno run -A bench/outside_sweep.ts --max-files 3000 --jobs 1 --out /tmp/sweep.jsonl
 * deno run -A bench/outside_sweep.ts --min-files 1500 --largest-first --tree-limit 3600
 * ```
 *
 * @module
 */

const MIRRORS = "/work/.mirror";
const CHILD = new URL("./_outside_tree.ts", import.meta.url).pathname;

function flag(name: string, fallback: string): string {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : fallback;
}

const only = flag("--only", "").split(",").filter(Boolean);
const skip = new Set(flag("--skip", "").split(",").filter(Boolean));
const jobs = Number(flag("--jobs", "2"));
const maxFiles = Number(flag("--max-files", "1000000"));
const minFiles = Number(flag("--min-files", "0"));
const largestFirst = Deno.args.includes("--largest-first");
/** Seconds one tree may take in all (its builds have their own limit: BUILD_LIMIT). */
const treeLimit = Number(flag("--tree-limit", "900"));
const work = flag("--work", `/tmp/outside_sweep_${Deno.pid}`);
const outPath = flag("--out", "");

/** The names of a mirror's files at HEAD, from the first of its candidate git folders that has one. */
async function listed(name: string): Promise<{ git: string; files: number } | string> {
  // `fetch` leaves a bare folder (`repo`) or, for some snapshots, a work tree (`repo/.git`).
  let said = "";
  for (const git of [`${MIRRORS}/${name}/repo`, `${MIRRORS}/${name}/repo/.git`]) {
    const out = await new Deno.Command("git", {
      args: ["--git-dir", git, "ls-tree", "-r", "--name-only", "-z", "HEAD"],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (out.success) return { git, files: out.stdout.filter((b) => b === 0).length };
    said ||= new TextDecoder().decode(out.stderr).trim().split("\n")[0];
  }
  return said;
}

/** The mirrors' git folders with their file counts, smallest first. */
async function mirrors(): Promise<{ name: string; git: string; files: number }[]> {
  const found: { name: string; git: string; files: number }[] = [];
  for await (const entry of Deno.readDir(MIRRORS)) {
    if (!entry.isDirectory || (only.length && !only.includes(entry.name))) continue;
    if (skip.has(entry.name)) continue;
    const tree = await listed(entry.name);
    // A mirror the sweep cannot read is said, not passed over (one was, for a whole session).
    if (typeof tree === "string") {
      record({ tree: entry.name, config: "mirror", check: "not listed", detail: tree });
      continue;
    }
    const { git, files } = tree;
    if (files <= maxFiles && files >= minFiles) found.push({ name: entry.name, git, files });
  }
  found.sort((x, y) => x.files - y.files || (x.name < y.name ? -1 : 1));
  return largestFirst ? found.reverse() : found;
}

interface Line {
  tree: string;
  config?: string;
  check?: string;
  detail?: unknown;
  done?: boolean;
  builds?: number;
  seconds?: number;
  /** The tree's three slowest builds: configuration and wall seconds. */
  slowest?: [string, number][];
}

const lines: Line[] = [];
const out = outPath
  ? await Deno.open(outPath, { write: true, create: true, truncate: true })
  : null;

function record(line: Line): void {
  lines.push(line);
  const text = JSON.stringify(line);
  if (!line.done) console.log(text);
  out?.writeSync(new TextEncoder().encode(text + "\n"));
}

async function sweepOne(tree: { name: string; git: string; files: number }): Promise<void> {
  const dir = `${work}/${tree.name}`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CHILD, tree.git, dir, tree.name],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch { /* ended */ }
  }, treeLimit * 1000);
  const output = await child.output();
  const status = output;
  clearTimeout(timer);
  let finished = false;
  for (const text of new TextDecoder().decode(output.stdout).split("\n")) {
    if (!text.startsWith("{")) continue;
    const line = JSON.parse(text) as Line;
    if (line.done) finished = true;
    record(line);
  }
  if (!finished) {
    const stderr = new TextDecoder().decode(output.stderr);
    record({
      tree: tree.name,
      config: "tree",
      check: status.signal === "SIGKILL" ? "tree time limit" : "child died",
      detail: { code: status.code, stderr: stderr.slice(-600) },
    });
  }
  const done = lines.find((l) => l.tree === tree.name && l.done);
  console.error(
    `${tree.name} (${tree.files} files): ${
      done
        ? `${done.builds} builds, ${done.seconds} s (slowest: ${
          (done.slowest ?? []).map(([c, s]) => `${c} ${s} s`).join(", ")
        })`
        : "unfinished"
    }`,
  );
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}

if (import.meta.main) {
  const trees = await mirrors();
  console.error(`${trees.length} trees, ${jobs} at a time, work in ${work}`);
  await Deno.mkdir(work, { recursive: true });
  const queue = [...trees];
  await Promise.all(
    Array.from({ length: jobs }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await sweepOne(next);
    }),
  );
  await Deno.remove(work, { recursive: true }).catch(() => {});
  const failures = lines.filter((l) => !l.done);
  const byCheck = new Map<string, Set<string>>();
  for (const l of failures) {
    const key = `${l.check}`;
    byCheck.set(key, (byCheck.get(key) ?? new Set()).add(l.tree));
  }
  const swept = lines.filter((l) => l.done).length;
  console.error(`\n${swept} of ${trees.length} trees finished; ${failures.length} failures`);
  for (const [check, names] of [...byCheck].sort()) {
    console.error(`  ${check}: ${names.size} trees (${[...names].slice(0, 6).join(", ")})`);
  }
  out?.close();
}
