/**
 * The two big trees of `deno task bench --corpus monorepo`, built on demand
 * into `bench/.cache/corpora` (never committed), each one git repository with
 * one commit:
 *
 * - `monorepo-xN`: N copies (60 at full size) of the local python3's standard
 *   library without tests (the `python-stdlib` corpus) under `packages/pkgNN/`;
 * - `modules-N`: N generated modules (100,000 at full size) of 2-4 KB each,
 *   TypeScript and Python packages of 100 modules, with imports of each other,
 *   constants, types, classes and functions; the same bytes on every machine
 *   (the seeded generator of `tests/_helpers.ts`).
 *
 * `scale` (0 < scale <= 1) makes both smaller: `round(60 * scale)` copies and
 * `round(100000 * scale)` modules, at least one copy and 100 modules.
 *
 * @module
 */

import { dirname, join, relative } from "node:path";
import { existsSync } from "node:fs";
import { modulePath, moduleText, PER_PACKAGE } from "./modules.ts";
import { type Corpus, pythonStdlib, runCommand, walkFiles } from "./_corpora.ts";

/** Copies of the standard library at full size. */
export const MONOREPO_COPIES = 60;
/** Generated modules at full size. */
export const MODULES = 100_000;

/**
 * Build (or reuse) both trees at `scale`; a tree that cannot be built is skipped with a message.
 *
 * @example
 * ```ts
 * import { prepareMonorepoCorpora } from "./_monorepo.ts";
 * // const [monorepo, modules] = await prepareMonorepoCorpora("bench/.cache", 0.1, console.log);
 * ```
 */
export async function prepareMonorepoCorpora(
  cache: string,
  scale: number,
  log: (message: string) => void,
): Promise<Corpus[]> {
  const out: Corpus[] = [];
  const stdlib = await pythonStdlib(cache);
  if (stdlib) {
    out.push(await monorepo(cache, stdlib, Math.max(1, Math.round(MONOREPO_COPIES * scale)), log));
  } else log("skipped the monorepo: no python3 standard library");
  out.push(await modules(cache, Math.max(PER_PACKAGE, Math.round(MODULES * scale)), log));
  return out;
}

async function monorepo(
  cache: string,
  stdlib: Corpus,
  copies: number,
  log: (message: string) => void,
): Promise<Corpus> {
  const name = `monorepo-x${copies}`;
  const dir = join(cache, "corpora", name);
  if (!existsSync(`${dir}.ready`)) {
    log(`${name}: copying the standard library ${copies} times`);
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    const files = await walkFiles(stdlib.dir);
    for (let copy = 0; copy < copies; copy++) {
      const pkg = join(dir, "packages", `pkg${String(copy).padStart(2, "0")}`);
      for (const path of files) {
        const to = join(pkg, relative(stdlib.dir, path));
        await Deno.mkdir(dirname(to), { recursive: true });
        await Deno.copyFile(path, to);
      }
    }
    await commitTree(dir, log);
  }
  await assertUnedited(dir);
  return {
    name,
    source: `${copies} copies of the ${stdlib.source} under packages/pkgNN/`,
    dir,
    ...await treeSize(dir),
  };
}

async function modules(
  cache: string,
  count: number,
  log: (message: string) => void,
): Promise<Corpus> {
  const name = `modules-${count}`;
  const dir = join(cache, "corpora", name);
  if (!existsSync(`${dir}.ready`)) {
    log(`${name}: writing ${count} generated modules`);
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    const encoder = new TextEncoder();
    for (let i = 0; i < count; i++) {
      const path = join(dir, modulePath(i));
      if (i % PER_PACKAGE === 0) await Deno.mkdir(dirname(path), { recursive: true });
      await Deno.writeFile(path, encoder.encode(moduleText(i, count)));
    }
    await commitTree(dir, log);
  }
  await assertUnedited(dir);
  return {
    name,
    source: `${count} generated modules of 2-4 KB (TypeScript and Python, bench/_monorepo.ts)`,
    dir,
    ...await treeSize(dir),
  };
}

/**
 * Throw when a tree's files are not those of its one commit. The benches edit a tree in place for
 * their warm builds and put the file back when done; a bench stopped meanwhile (a signal runs no
 * `finally`) leaves the edit, and a bench running beside another gives the other's builds the
 * edited file: their documents then differ from a clean tree's with no fault of slop's
 * (bench/README.md, "One cold build of the 100,000 modules gave other bytes").
 *
 * @example
 * ```ts
 * import { assertUnedited } from "./_monorepo.ts";
 * // await assertUnedited("bench/.cache/corpora/modules-100000");
 * ```
 */
export async function assertUnedited(dir: string): Promise<void> {
  const status = await runCommand(
    "git",
    ["--no-optional-locks", "status", "--porcelain", "-z"],
    dir,
  );
  const changed = status.split("\0").filter(Boolean).map((line) => line.slice(3));
  if (!changed.length) return;
  const named = changed.slice(0, 3).map((p) => `"${p}"`).join(", ");
  const more = changed.length > 3 ? ` and ${changed.length - 3} more` : "";
  throw new Error(
    `[bench] The tree "${dir}" differs from its commit (${named}${more}): a bench that edits it ` +
      `was stopped, or runs now. When none runs, restore it with "git -C ${dir} checkout -- ." ` +
      `and "git -C ${dir} clean -fdq"`,
  );
}

/** One commit of everything, with a fixed author and date (the same commit on every machine). */
async function commitTree(dir: string, log: (message: string) => void): Promise<void> {
  log(`${relative(dirname(dir), dir)}: one git commit`);
  const git = (args: string[]) =>
    new Deno.Command("git", {
      args,
      cwd: dir,
      env: {
        GIT_AUTHOR_NAME: "bench",
        GIT_AUTHOR_EMAIL: "bench@example.invalid",
        GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
        GIT_COMMITTER_NAME: "bench",
        GIT_COMMITTER_EMAIL: "bench@example.invalid",
        GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
      },
      stdout: "null",
      stderr: "piped",
    }).output().then((out) => {
      if (!out.success) {
        throw new Error(
          `[bench] "git ${args[0]}" failed in "${dir}": ${new TextDecoder().decode(out.stderr)}`,
        );
      }
    });
  await runCommand("git", ["init", "-q", dir]);
  await git(["add", "-A"]);
  await git(["-c", "commit.gpgsign=false", "commit", "-q", "-m", "corpus"]);
  // The marker sits beside the tree, out of both tools' view.
  await Deno.writeTextFile(`${dir}.ready`, "");
}

async function treeSize(dir: string): Promise<{ files: number; bytes: number }> {
  const files = await walkFiles(dir);
  let bytes = 0;
  for (const f of files) bytes += (await Deno.lstat(f)).size;
  return { files: files.length, bytes };
}
