/**
 * What the resolve stage leaves out by default, and the reason each skipped row of the manifest
 * gives: folders never bundled (`.git`, `node_modules`, `.slop`), files that usually hold secrets,
 * history files, generated files (lockfiles, minified files, source maps, build info), SVG images
 * over 64 KB, vendored code (a `vendor` folder with a package manager's marker: `_vendored.ts`),
 * nested repositories, folders slop cannot list and names that are not valid UTF-8.
 *
 * @module
 */

import { isDataFile, isTranslationFile } from "./data_files.ts";

/** Path segments never bundled. */
export const DEFAULT_EXCLUDED_DIRS: string[] = [".git", "node_modules", ".slop"];

/** Files excluded unless listed by their literal path (they usually hold secrets). */
export const DEFAULT_SECRET_FILES: string[] = [".env*", "*.pem", "id_rsa*", "*.key"];

/** Why a generated file is skipped, by kind. */
const GENERATED_REASONS: Record<GeneratedRule["kind"], string> = {
  lockfile: "lockfile",
  minified: "minified file",
  sourcemap: "source map",
  buildinfo: "build info",
  wrapper: "a build tool's wrapper script",
};

/** A kind of generated file: a name (`yarn.lock`) or a name ending (`*.min.js`). */
export interface GeneratedRule {
  /** The file name, or `*` and the ending of names. */
  pattern: string;
  /** What the file is (`lockfile`, `minified`, `sourcemap`, `buildinfo`, `wrapper`). */
  kind: "lockfile" | "minified" | "sourcemap" | "buildinfo" | "wrapper";
}

/**
 * Files that package managers and builds write, which a repository packer
 * skips unless the config names them: each a file name (`yarn.lock`) or a
 * name ending (`*.min.js`), with its kind (see {@linkcode generatedReason}).
 */
export const GENERATED_FILES: GeneratedRule[] = [
  // JavaScript: npm, Yarn, pnpm, Bun, Deno.
  ...["package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml"],
  ...["bun.lock", "bun.lockb", "deno.lock"],
  // Python: Poetry, uv, Pipenv, PDM, pixi, conda-lock.
  ...["poetry.lock", "uv.lock", "Pipfile.lock", "pdm.lock", "pixi.lock", "conda-lock.yml"],
  // Rust, Go (modules, dep, Glide), PHP, Ruby, Elixir, Dart, Nix, Swift, CocoaPods, Carthage,
  // .NET, Gradle, Terraform.
  ...["Cargo.lock", "go.sum", "go.work.sum", "Gopkg.lock", "glide.lock"],
  ...["composer.lock", "Gemfile.lock", "mix.lock"],
  ...["pubspec.lock", "flake.lock", "Package.resolved", "Podfile.lock", "Cartfile.resolved"],
  ...["packages.lock.json", "gradle.lockfile", ".terraform.lock.hcl"],
  // Bazel (bzlmod, rules_jvm_external), Julia, R (renv), Haskell (Stack, Cabal), Crystal, Erlang,
  // .NET Paket, Conan, Helm, jsonnet-bundler, Python (PEP 751, Rye), Bundler's other name, Perl's
  // Carton, PureScript's Spago, opam, Gradle's buildscript, Yarn's Plug'n'Play maps.
  ...["MODULE.bazel.lock", "maven_install.json", "Manifest.toml", "JuliaManifest.toml"],
  ...["renv.lock", "stack.yaml.lock", "cabal.project.freeze", "shard.lock", "rebar.lock"],
  ...["paket.lock", "conan.lock", "Chart.lock", "jsonnetfile.lock.json", "pylock.toml"],
  ...["requirements.lock", "requirements-dev.lock", "gems.locked", "cpanfile.snapshot"],
  ...["spago.lock", "*.opam.locked", "buildscript-gradle.lockfile", ".pnp.cjs", ".pnp.loader.mjs"],
].map((pattern): GeneratedRule => ({ pattern, kind: "lockfile" })).concat([
  { pattern: "*.min.js", kind: "minified" },
  { pattern: "*.min.mjs", kind: "minified" },
  { pattern: "*.min.cjs", kind: "minified" },
  { pattern: "*.min.css", kind: "minified" },
  { pattern: "*.map", kind: "sourcemap" },
  { pattern: "*.tsbuildinfo", kind: "buildinfo" },
  // The scripts `gradle wrapper` and Maven's wrapper plugin write, the same boilerplate in every
  // project (spring-petclinic's four: 31 KB); the build tool's version is in the properties file
  // beside the wrapper's jar, which is kept.
  ...["gradlew", "gradlew.bat", "mvnw", "mvnw.cmd"].map((pattern): GeneratedRule => ({
    pattern,
    kind: "wrapper",
  })),
]);

/**
 * Name endings that only generated files have: a glob that spells one of
 * them (`*.lock`) names every generated file with that ending.
 */
const GENERATED_ENDINGS = [".lock", ".lockb", ".sum", ".lockfile", ".resolved", ".locked"];

/** History files the seed blacklists from file sets. */
export const HISTORY_FILES: string[] = ["history.toml", "*_history.toml"];

/**
 * Why a file is skipped by default as generated (a lockfile, a minified
 * file, a source map, build info), with how to include it; `undefined` for
 * any other file.
 *
 * @example
 * ```ts
 * import { generatedReason } from "./_default_skips.ts";
 * generatedReason("web/package-lock.json");
 * // 'lockfile, skipped by default: name it in "files" to include it'
 * generatedReason("src/app.js"); // undefined
 * ```
 */
export function generatedReason(path: string): string | undefined {
  const rule = generatedRule(path);
  return rule &&
    `${GENERATED_REASONS[rule.kind]}, skipped by default: name it in "files" to include it`;
}

/**
 * The generated-file rule a path's name matches (the first in `GENERATED_FILES`' order): the
 * name looked up among the rules' names, then the endings tried, no text made for any rule (it
 * is asked for each of a tree's files at each build).
 */
function generatedRule(path: string): GeneratedRule | undefined {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const named = RULE_NAMES.get(name);
  for (const [ending, at] of RULE_ENDINGS) {
    if (named !== undefined && at > named) break;
    if (name.length > ending.length && name.endsWith(ending)) return GENERATED_FILES[at];
  }
  return named === undefined ? undefined : GENERATED_FILES[named];
}

/** The rules of `GENERATED_FILES` that name a whole file: the name, and the first rule's place. */
const RULE_NAMES = new Map<string, number>();
/** The rules of `GENERATED_FILES` that name an ending (`*.pb.go`): the ending and the place, in order. */
const RULE_ENDINGS: Array<[string, number]> = [];
GENERATED_FILES.forEach(({ pattern }, at) => {
  if (pattern.startsWith("*")) RULE_ENDINGS.push([pattern.slice(1), at]);
  else if (!RULE_NAMES.has(pattern)) RULE_NAMES.set(pattern, at);
});

/**
 * Whether a glob names a generated file, an SVG or a data file it matches: its last part spells
 * the file's name (`**\/yarn.lock`), the rule's ending (`*.min.js`, `*.map`), an
 * ending only generated files have (`*.lock`), `svg` for an SVG (`*.svg`), or a data file's
 * ending (`*.json`).
 * `**` or `*.json` do not.
 */
export function globNames(glob: string, path: string): boolean {
  const last = glob.slice(glob.lastIndexOf("/") + 1);
  // An SVG is named by a glob that spells the ending (`*.svg`, `*.{svg,png}`), a data file too
  // (`fixtures/*.json`).
  if (isSvg(path)) return last.toLowerCase().includes("svg");
  const rule = generatedRule(path);
  // A lockfile is generated before it is data: `*.json` does not name `package-lock.json`.
  if (!rule) {
    const ending = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
    return (isDataFile(path) || isTranslationFile(path)) && last.toLowerCase().includes(ending);
  }
  const name = path.slice(path.lastIndexOf("/") + 1);
  const spellings = rule.pattern.startsWith("*") ? [rule.pattern.slice(1)] : [name];
  for (const ending of GENERATED_ENDINGS) if (name.endsWith(ending)) spellings.push(ending);
  return spellings.some((s) => last.includes(s));
}

/**
 * The size (bytes) over which an SVG the config does not name is skipped: an icon font or a
 * drawing that large is image data (paths of numbers), costing tokens and telling an agent little.
 */
export const SVG_LIMIT = 64 * 1024;

/**
 * Whether a path is an SVG image (`.svg` in any case; `.svgz` is compressed, binary already).
 *
 * @example
 * ```ts
 * import { isSvg } from "./_default_skips.ts";
 * isSvg("http/assets/fonts/fa-solid.SVG"); // true
 * isSvg("svg/index.ts"); // false
 * ```
 */
export function isSvg(path: string): boolean {
  return path.toLowerCase().endsWith(".svg");
}

/**
 * Why an SVG over {@linkcode SVG_LIMIT} that the config does not name is skipped.
 *
 * @example
 * ```ts
 * import { svgReason } from "./_default_skips.ts";
 * svgReason(400_000).startsWith("an SVG image of 400000 bytes"); // true
 * ```
 */
export function svgReason(size: number): string {
  return `an SVG image of ${size} bytes, over ${SVG_LIMIT / 1024} KB: image data, skipped by ` +
    'default: name it in "files" (its path, or a glob with ".svg") to include it';
}

export function excludedByDefault(path: string): boolean {
  // Most paths hold none of the names: no need to split them.
  if (!DEFAULT_EXCLUDED_DIRS.some((dir) => path.includes(dir))) return false;
  for (const part of path.split("/")) if (DEFAULT_EXCLUDED_DIRS.includes(part)) return true;
  return false;
}

/** Why a folder of {@linkcode DEFAULT_EXCLUDED_DIRS} that git lists files in is skipped. */
export const EXCLUDED_DIR_REASON =
  'a folder slop leaves out of every build (".git", "node_modules", ".slop"): its files are not ' +
  "bundled";

/**
 * The folders under the root that are Python virtual environments: those that hold a
 * `pyvenv.cfg` (the file `python -m venv`, virtualenv and uv write at a venv's top), whatever
 * their name (`.venv`, `venv`, `env`). Like `node_modules`, a venv is installed packages, and a
 * project's `.gitignore` does not always name it.
 *
 * @example
 * ```ts
 * import { venvFolders } from "./_default_skips.ts";
 * venvFolders([".venv/pyvenv.cfg", ".venv/lib/site.py", "app.py"]); // [".venv"]
 * ```
 */
export function venvFolders(paths: string[]): string[] {
  return paths.filter((p) => p.endsWith("/pyvenv.cfg")).map((p) =>
    p.slice(0, -"/pyvenv.cfg".length)
  );
}

/** Why a Python virtual environment (a folder with a `pyvenv.cfg`) is skipped. */
export const VENV_REASON =
  "a Python virtual environment, a folder with a pyvenv.cfg: installed packages, not bundled";

/**
 * Why a `vendor` folder a package manager wrote (`kind`: `Go modules`, `Composer`, `Bundler`,
 * `Cargo`) is skipped, with how to include it.
 *
 * @example
 * ```ts
 * import { vendoredReason } from "./_default_skips.ts";
 * vendoredReason("Go modules");
 * // 'vendored code (Go modules), skipped by default: name it in "files" to include it'
 * ```
 */
export function vendoredReason(kind: string): string {
  return `vendored code (${kind}), skipped by default: name it in "files" to include it`;
}

/** Why a submodule or nested repository (a folder in git's listing) is skipped. */
export const NESTED_REASON =
  "a nested git repository, a submodule or a clone: its files are not part of this one; " +
  'name them by path in "files" to include them';

/**
 * Why a submodule whose folder is empty is skipped: git lists it, but a clone made without
 * `--recurse-submodules` (as most CI checkouts are) leaves its folder empty until it is checked out.
 */
export const EMPTY_SUBMODULE_REASON =
  'a submodule not checked out (its folder is empty): run "git submodule update --init" to ' +
  'check it out, then name its files by path in "files" to include them';

/** Why a folder a walk could not list is skipped in place of its files. */
export function unlistedReason(error: unknown): string {
  const detail = error instanceof Error ? error.message : String(error);
  // Deno's message ends with the folder's path, already the manifest row's own.
  // Its code too (`(os error 13)`), as in a file's reason.
  const cause = detail.replace(/: (?:readdir|open|opendir) '.*$/s, "")
    .replace(/ \(os error \d+\)$/, "");
  return `a folder slop cannot list (${cause}): its files are left out`;
}

/** Why a file that usually holds secrets (`.env`, a key) is skipped. */
export const SECRET_FILE_REASON =
  'may hold secrets, skipped by default: name it by its path in "files" to include it';

/** What a byte sequence that is not valid UTF-8 becomes in a decoded file name. */
export const UNDECODABLE = "\uFFFD";

/** Why a file whose name is not valid UTF-8 is skipped. */
export const UNDECODABLE_REASON =
  "a name in the path is not valid UTF-8, so slop cannot open it: rename it to include it";
