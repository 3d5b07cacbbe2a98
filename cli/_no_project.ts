/**
 * A build with no config and no paths bundles every file under the folder it runs in. In the
 * file system's root or the home folder that is a crawl of the whole disk or of everything the
 * user owns, which runs for minutes before it fails or writes a document nobody wanted: slop
 * says so instead, as `slop mcp` does when it starts there.
 *
 * @module
 */

import { join, parse } from "node:path";
import { existsSync } from "node:fs";
import { formatCount } from "../pipeline/figures.ts";
import { mayBeInWorkTree } from "../pipeline/git_folders.ts";

/** Thrown for a build that has no project to bundle; the CLI exits 2 (bad input). */
export class NoProjectError extends Error {
  /** What is wrong, without the command line's remedy (`slop mcp` gives its own). */
  problem: string;
  /**
   * @param problem What is wrong.
   * @param remedy What to do about it on the command line.
   */
  constructor(problem: string, remedy: string) {
    super(`${problem}; ${remedy}`);
    this.name = "NoProjectError";
    this.problem = problem;
  }
}

/**
 * Files a folder that is no project (no git repository around it, no project file in it) may
 * hold before a build without config or paths refuses it: far more than a loose folder of notes
 * or scripts, far fewer than a downloads folder or `/tmp` (a bare `slop` there bundled all of it
 * for minutes). A project of that size is a git repository or has a project file.
 */
const CROWDED_FILES = 10_000;

/** Options of {@linkcode checkProjectRoot}. */
export interface CheckProjectOptions {
  /** Files a folder that is no project may hold. @default {CROWDED_FILES} */
  maxFiles?: number;
  /**
   * Whether a crowded folder that is no project is refused; the CLI asks it only when a person
   * at a terminal started the build (a script, a CI job or an agent may mean a generated tree
   * without git). The home folder and the root are refused either way. @default true
   */
  crowded?: boolean;
}

/**
 * Throw when `root` is the file system's root or the home folder, or a folder that is no project
 * (not in a git repository, with no project file: `package.json`, `deno.json`, a toolchain's)
 * holding more than `maxFiles` files (counted until there are more, not followed into links).
 *
 * @example
 * ```ts
 * import { checkProjectRoot } from "./_no_project.ts";
 * checkProjectRoot("/tmp/project"); // nothing: a project folder
 * ```
 */
export function checkProjectRoot(root: string, options: CheckProjectOptions = {}): void {
  const which = broadFolder(root);
  if (which) {
    throw new NoProjectError(
      `No project here: "${root}" is ${which}, and without a config slop would bundle every file ` +
        "under it",
      "run slop in a project's folder, or name what to bundle (slop build src/)",
    );
  }
  const max = options.maxFiles ?? CROWDED_FILES;
  if (
    options.crowded === false || mayBeInWorkTree(root) || projectFile(root) || !overFiles(root, max)
  ) return;
  throw new NoProjectError(
    `No project here: "${root}" is not in a git repository, has no project file and holds more ` +
      `than ${formatCount(max)} files, which a config-less slop would all bundle`,
    "run slop in a project's folder, name what to bundle (slop build src/, or slop build . for " +
      "all of it), or write a config (slop init)",
  );
}

/** The file at `root` that makes it a project: Deno's, Node's or another toolchain's. */
function projectFile(root: string): string | undefined {
  const own = ["deno.json", "deno.jsonc", "package.json"].find((n) => existsSync(join(root, n)));
  return own ?? toolchainFile(root);
}

/** Whether the tree under `root` holds more than `max` files: counts until it does. */
function overFiles(root: string, max: number): boolean {
  let files = 0;
  const folders = [root];
  while (folders.length) {
    const folder = folders.pop()!;
    try {
      for (const entry of Deno.readDirSync(folder)) {
        if (entry.isDirectory) folders.push(join(folder, entry.name));
        else if (entry.isFile && ++files > max) return true;
      }
    } catch {
      // Unreadable: nothing slop could bundle there either.
    }
  }
  return false;
}

/**
 * What `root` (a real path) is when it is a folder no project lives in: "the file system's root"
 * or "your home folder"; undefined for any other folder. `slop mcp` asks it too.
 *
 * @example
 * ```ts
 * import { broadFolder } from "./_no_project.ts";
 * broadFolder("/"); // "the file system's root"
 * ```
 */
export function broadFolder(root: string): string | undefined {
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE");
  if (root === parse(root).root) return "the file system's root";
  if (home !== undefined && root === realPathOrSelf(home)) return "your home folder";
  return undefined;
}

function realPathOrSelf(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return path;
  }
}

/**
 * The files that make a folder the root of a project of another toolchain than Deno's or Node's:
 * Python (Poetry, uv, setuptools, Pipenv), Go, Rust, the JVM (Maven, Gradle, sbt, Ant), .NET,
 * Ruby, PHP, Elixir and Erlang, Swift, Dart, C and C++ builds, Haskell, OCaml, Zig, Clojure,
 * Julia and Perl. Their users run commands with their own tools, not `deno task`.
 */
const TOOLCHAIN_FILES = [
  "pyproject.toml",
  "setup.py",
  "setup.cfg",
  "Pipfile",
  "requirements.txt",
  "go.mod",
  "Cargo.toml",
  "pom.xml",
  "build.gradle",
  "build.gradle.kts",
  "settings.gradle",
  "settings.gradle.kts",
  "build.sbt",
  "build.xml",
  "Gemfile",
  "composer.json",
  "mix.exs",
  "rebar.config",
  "Package.swift",
  "pubspec.yaml",
  "CMakeLists.txt",
  "meson.build",
  "Makefile",
  "GNUmakefile",
  "stack.yaml",
  "dune-project",
  "build.zig",
  "deps.edn",
  "project.clj",
  "Project.toml",
  "cpanfile",
  "Makefile.PL",
];

/** A project file named by its project: a .NET solution or project, a Cabal, gem or opam package. */
const TOOLCHAIN_ENDINGS = /\.(?:sln|slnx|csproj|fsproj|vbproj|cabal|gemspec|nimble|rockspec|opam)$/;

/**
 * The first file at `root` that makes it a project of another toolchain (see
 * {@linkcode TOOLCHAIN_FILES}), in that list's order, else by name among the folder's files.
 * `slop init` and the crowded-folder check ask it.
 *
 * @example
 * ```ts
 * import { toolchainFile } from "./_no_project.ts";
 * toolchainFile("/tmp/no-such-folder"); // undefined
 * ```
 */
export function toolchainFile(root: string): string | undefined {
  const named = TOOLCHAIN_FILES.find((name) => existsSync(join(root, name)));
  if (named !== undefined) return named;
  try {
    const names = [...Deno.readDirSync(root)].filter((e) => e.isFile).map((e) => e.name).sort();
    return names.find((name) => TOOLCHAIN_ENDINGS.test(name));
  } catch {
    return undefined;
  }
}
