/**
 * `slop init`: write a commented `slop.config.ts` and add the `context`
 * task to the project's deno.json (or deno.jsonc); in a Node project (a
 * package.json and no Deno config) a `context` script in package.json
 * instead. What it writes is for every checkout of the project, not only
 * this machine's: the task runs the `slop` command when it is installed (on
 * PATH), and the config imports nothing from slop's files on this machine (a
 * plain object; slop loaded from a URL is imported by that URL). The task is
 * written into the file as it stands (comments and layout kept). Never
 * overwrites: an existing config or task is kept, and a file it cannot read
 * as a JSON object with comments is left alone with the line to add printed
 * instead.
 *
 * @module
 */

import nodePath, { delimiter, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { PlatformPath } from "node:path";
import { fileURLToPath } from "node:url";
import { existsSync } from "node:fs";
import { readSettingText, readSettingTextSync } from "../pipeline/helpers.ts";
import { errorText } from "../pipeline/error_text.ts";
import { shownPath } from "../pipeline/paths.ts";
import { writeAtomic } from "../pipeline/emit.ts";
import { printError } from "./_output.ts";
import { toolchainFile } from "./_no_project.ts";
import { withContextTask } from "./_jsonc.ts";
import { CONFIG_FILES, unloadedConfigFile } from "../pipeline/config.ts";

// The benchmark starts slop with these flags itself (a started process does not start again).
export { SLOP_V8_FLAGS } from "./_v8_flags.ts";

/**
 * What the written task adds to `build`: the build server, so that every
 * `deno task context` after the first is a warm build in a process that keeps
 * the project loaded (not on Windows, where the server cannot run).
 */
const TASK_SERVER = Deno.build.os === "windows" ? "" : " --server";

/** Flags of `slop init`. */
export interface InitFlags {
  /** Print nothing but errors (`--quiet`). */
  quiet?: boolean;
}

/** What `slop init` did to each file. */
export interface InitResult {
  /** `created` or `kept`. */
  config: "created" | "kept";
  /** The config file written or kept: `slop.config.ts`, or the `slop.config.js` already there. */
  configFile: string;
  /**
   * `created`, `added` (task added to an existing file), `kept`, `manual` (a file slop cannot
   * edit) or `none`: a project of another toolchain with no deno.json or package.json, where no
   * task file is written (see `toolchain`).
   */
  denoJson: "created" | "added" | "kept" | "manual" | "none";
  /** The task command written or suggested. */
  task: string;
  /**
   * The path of slop's `cli.ts` on this machine that the task names, when slop is not
   * installed as the `slop` command and runs from files on disk; undefined for a task that
   * runs the same in every checkout (`slop build`, or a URL).
   */
  localPath?: string;
  /**
   * The file the task is in or for: `deno.json`, `deno.jsonc` when that exists, or
   * `package.json` in a Node project (a package.json and no Deno config).
   */
  denoJsonName: string;
  /**
   * In a Node project, the package manager its `packageManager` field or its lockfile names
   * (`pnpm-lock.yaml`: `pnpm`, `yarn.lock`: `yarn`, `bun.lock` or `bun.lockb`: `bun`; also at a
   * monorepo's top), else `npm`: how the script is run.
   */
  runner?: NodeRunner;
  /**
   * With `denoJson: "none"`, the file that makes the folder a project of another toolchain
   * (`pyproject.toml`, `go.mod`, `Cargo.toml`, `MediatR.sln`, ...), or part of the repository's
   * Node or other project above it (`../../go.mod`, `../package.json`).
   */
  toolchain?: string;
}

/** A package manager that runs a `package.json` script. */
type NodeRunner = "npm" | "pnpm" | "yarn" | "bun";

/** Lockfiles by the package manager that writes them, looked for in this order. */
const LOCKFILES: Array<[string, NodeRunner]> = [
  ["pnpm-lock.yaml", "pnpm"],
  ["yarn.lock", "yarn"],
  ["bun.lock", "bun"],
  ["bun.lockb", "bun"],
  ["package-lock.json", "npm"],
];

/** The managers `packageManager` in package.json may name (Corepack's `pnpm@9.1.0`). */
const RUNNER_NAMES = /^(npm|pnpm|yarn|bun)(?:@|$)/;

/**
 * The package manager of the Node project at `root`: the one its package.json names in
 * `packageManager`, else the one whose lockfile is there; else the same in the nearest folder
 * above it up to the repository's top that says (a monorepo package: the workspace's); else
 * `npm`. Outside a repository only `root` is looked at: a folder above may be another project's.
 */
function nodeRunner(root: string): NodeRunner {
  for (const folder of [root, ...foldersAbove(root)]) {
    const named = packageManagerField(join(folder, "package.json"));
    if (named !== undefined) return named;
    const found = LOCKFILES.find(([name]) => existsSync(join(folder, name)));
    if (found !== undefined) return found[1];
  }
  return "npm";
}

/**
 * The folders above `root` up to the top of its git repository (the folder with `.git`), nearest
 * first; none outside a repository, where a folder above may hold another project.
 */
function foldersAbove(root: string): string[] {
  const folders: string[] = [];
  for (let dir = root; !existsSync(join(dir, ".git"));) {
    const parent = dirname(dir);
    if (parent === dir) return [];
    folders.push(dir = parent);
  }
  return folders;
}

/** The most bytes of a package.json read for its `packageManager` field. */
const PACKAGE_JSON_LIMIT = 16 * 1024 * 1024;

/** The manager named by the `packageManager` field of a package.json, if it names one. */
function packageManagerField(path: string): NodeRunner | undefined {
  try {
    const field = JSON.parse(readSettingTextSync(path, PACKAGE_JSON_LIMIT))?.packageManager;
    const match = typeof field === "string" ? RUNNER_NAMES.exec(field) : null;
    return match ? match[1] as NodeRunner : undefined;
  } catch {
    // Unreadable or not JSON: the lockfiles decide (addTask reports such a file).
    return undefined;
  }
}

/** How to run the `context` script with `runner`, and with `--no-server` added. */
function scriptCommands(runner: NodeRunner): [string, string] {
  // npm passes a script's arguments after `--`; pnpm, yarn and bun pass those after its name.
  const run = `${runner} run context`;
  return [run, runner === "npm" ? `${run} -- --no-server` : `${run} --no-server`];
}

/**
 * Where a project keeps its tasks: its Deno config, else a Node project's package.json, else a
 * new deno.json, except in a project of another toolchain (a Poetry, Go or Cargo project: see
 * {@linkcode TOOLCHAIN_FILES}), where a deno.json would be the project's one Deno file, made for
 * a command its users would not look for there: none (`name` undefined), and `toolchain` names
 * the file that says so. The same in a folder with no project file of its own inside such a
 * repository, or a Node one (its package.json above, nearer than any Deno config).
 */
function taskFile(
  root: string,
): { name?: string; key: "tasks" | "scripts"; toolchain?: string } {
  for (const name of ["deno.jsonc", "deno.json"]) {
    if (existsSync(join(root, name))) return { name, key: "tasks" };
  }
  if (existsSync(join(root, "package.json"))) return { name: "package.json", key: "scripts" };
  const toolchain = toolchainFile(root);
  if (toolchain !== undefined) return { key: "tasks", toolchain };
  // A folder with no project file of its own, in a repository whose nearer project above is a
  // Node one or of another toolchain: a deno.json here would be that project's stray Deno file.
  for (const folder of foldersAbove(root)) {
    if (["deno.jsonc", "deno.json"].some((name) => existsSync(join(folder, name)))) break;
    const above = existsSync(join(folder, "package.json")) ? "package.json" : toolchainFile(folder);
    if (above !== undefined) {
      return { key: "tasks", toolchain: relative(root, join(folder, above)).replaceAll(sep, "/") };
    }
  }
  return { name: "deno.json", key: "tasks" };
}

/**
 * Whether the `slop` command is installed: an executable `slop` (`slop.cmd`
 * on Windows, as `deno install` writes it) in a folder of PATH given by an
 * absolute path. A relative folder is passed over: it names a place in the
 * current folder, not a command the project's other checkouts have.
 */
function slopOnPath(): boolean {
  const names = Deno.build.os === "windows" ? ["slop.cmd", "slop.exe", "slop.bat"] : ["slop"];
  for (const dir of (Deno.env.get("PATH") ?? "").split(delimiter)) {
    if (!isAbsolute(dir)) continue;
    for (const name of names) {
      try {
        const info = Deno.statSync(join(dir, name));
        if (info.isFile && (Deno.build.os === "windows" || ((info.mode ?? 0) & 0o111) !== 0)) {
          return true;
        }
      } catch {
        // Not in this folder (or not readable): the next one.
      }
    }
  }
  return false;
}

/**
 * How a project at `dir` refers to a slop module: a relative path when slop
 * is on disk, else the URL.
 */
function slopSpecifier(dir: string, file: string): string {
  const url = new URL(`../${file}`, import.meta.url);
  if (url.protocol !== "file:") return url.href;
  return relativeSpecifier(dir, fileURLToPath(url));
}

/** Options of {@linkcode relativeSpecifier}. */
export interface RelativeSpecifierOptions {
  /** The path functions: the platform's, or `win32`/`posix` of node:path. @default {node:path} */
  path?: PlatformPath;
}

/**
 * `to` as a path from `from` for a command line, with `/` between names: `./` or `../` before
 * it, or absolute when no relative path leads there (on Windows, another drive).
 *
 * @example
 * ```ts
 * import { win32 } from "node:path";
 * import { relativeSpecifier } from "./init.ts";
 * relativeSpecifier("/p", "/p/tools/cli.ts"); // "./tools/cli.ts"
 * relativeSpecifier("C:\\p", "D:\\slop\\cli.ts", { path: win32 }); // "D:/slop/cli.ts"
 * ```
 */
export function relativeSpecifier(
  from: string,
  to: string,
  { path = nodePath }: RelativeSpecifierOptions = {},
): string {
  const rel = path.relative(from, to);
  const slashed = rel.split(path.sep).join("/");
  if (path.isAbsolute(rel) || slashed === ".." || slashed.startsWith("../")) return slashed;
  return `./${slashed}`;
}

/**
 * A path as one word of a `deno task` command: as it is when it holds only
 * safe characters, else in single quotes (a path with a space would be two
 * words).
 */
function shellWord(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'"'"'`)}'`;
}

/**
 * The commented config `slop init` writes: with `configSpecifier` (slop's
 * `config.ts` by URL) an import of `defineConfig`, else a plain object, which
 * loads the same with any slop.
 */
function configTemplate(configSpecifier: string | undefined): string {
  const head = configSpecifier === undefined
    ? `// A plain object: slop's defineConfig (its config.ts) would only add types, and an import of
// it by path would name where slop's files are on this machine, which another checkout of this
// project may not have.

export default {`
    : `import { defineConfig } from ${JSON.stringify(configSpecifier)};

export default defineConfig({`;
  return `// What \`slop build\` bundles into .slop/out/context_NNN.md.
// Every key is optional; unknown keys are errors that name the key.
${head}
  // Paths or globs relative to this file, or entries with per-file options.
  // Ignore rules are git's; .git, node_modules and .slop are always left out.
  files: [
    "**",
    // { path: "src/big_module.ts", view: "summary" },
    // { path: "docs/CHANGELOG.md", autoAggregate: false }, // listed, not rendered
    // "fixtures/site.json", // a data file over 32 KB, named: shown whole, not summarized
  ],
  // Globs left out on top of .gitignore.
  exclude: [],
  // The view for files that set none: full, summary, skeleton, outline, masked, custom, cells,
  // llm_summary (needs a provider), none, or a plugin's view.
  defaultView: "full",
  // Larger files are skipped (bytes).
  maxFileSize: 10 * 1024 * 1024,
  // Where documents go and in which format: markdown, xml or json.
  // output: { dir: ".slop/out", namespace: "context", format: "markdown" },
  // A JSONL or TOML discussion file: the volatile tail of the document.
  // history: "slop/discussion.jsonl",
  // The directory tree as a volatile section after the files.
  // tree: true,
  // Your plugins (view modes, sections, ordering rules, providers).
  // plugins: [],
}${configSpecifier === undefined ? "" : ")"};
`;
}

/**
 * Initialise slop in `dir`; never overwrites anything.
 */
async function initProject(dir: string): Promise<InitResult> {
  const root = resolve(dir);
  // The installed command by name: the same task in every checkout where slop is installed. Else
  // slop's cli.ts by its path here (a clone run without installing) or its URL. No V8 flags: a
  // build in the task's process starts again with them (cli/_relaunch.ts).
  const cli = slopSpecifier(root, "cli.ts");
  const installed = slopOnPath();
  const task = installed
    ? `slop build${TASK_SERVER}`
    : `deno run -A ${shellWord(cli)} build${TASK_SERVER}`;
  // A URL's scheme has two letters or more: `D:/slop/cli.ts` is a path on another drive.
  const localPath = installed || /^[a-z][a-z0-9+.-]+:/i.test(cli) ? undefined : cli;
  let config: InitResult["config"] = "kept";
  const configPath = join(root, "slop.config.ts");
  await makeFolder(root, dir);
  const existing = CONFIG_FILES.find((n) => existsSync(join(root, n)));
  const loaded = existing !== undefined;
  // A config slop does not load (`slop.config.yaml`): a slop.config.ts written beside it would be
  // loaded instead, and its settings ignored from then on without a word. Nothing is written.
  const unloaded = loaded ? undefined : unloadedConfigFile(root);
  if (unloaded) {
    const shown = relative(Deno.cwd(), join(root, unloaded)).split(sep).join("/");
    throw new Error(
      `Cannot set up slop: "${shown}" is a config slop does not load (it reads only ` +
        "slop.config.ts, slop.config.js or slop.config.mjs, in lower case): move its settings " +
        "into slop.config.ts (export default { ... }) and remove it, or move it away; then run " +
        "`slop init` again",
    );
  }
  const configFile = existing ?? "slop.config.ts";
  const file = taskFile(root);
  // An import only by URL: a path would be this machine's. In a Node project none at all (the
  // project's tsc would type-check slop's Deno modules through it).
  const url = new URL("../config.ts", import.meta.url);
  const specifier = file.key === "scripts" || url.protocol === "file:" ? undefined : url.href;
  if (!loaded) {
    try {
      // createNew: fails rather than overwrite a file that appeared meanwhile.
      await Deno.writeTextFile(configPath, configTemplate(specifier), { createNew: true });
      config = "created";
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw writeFailure(configPath, error);
    }
  }
  if (file.name === undefined) {
    const toolchain = file.toolchain;
    return { config, configFile, denoJson: "none", task, denoJsonName: "", toolchain };
  }
  const denoJson = await addTask(join(root, file.name), task, file.key);
  const runner = file.key === "scripts" ? { runner: nodeRunner(root) } : {};
  return { config, configFile, denoJson, task, localPath, denoJsonName: file.name, ...runner };
}

/**
 * A file `slop init` cannot write (a folder its user may not write), as a sentence that names
 * the file and says what to do, not the OS call.
 */
function writeFailure(path: string, error: unknown): Error {
  // `writeAtomic()`'s error names the whole path; the system's own is its cause.
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const reason = errorText(cause).replace(/ \(os error \d+\).*$/s, "");
  return new Error(
    `Cannot write "${shownPath(path)}": ${reason.charAt(0).toLowerCase()}${reason.slice(1)}: ` +
      "run slop init as a user who may write the project's folder",
  );
}

/** `mkdir -p`, failing with a sentence that names the folder (not the OS call). */
async function makeFolder(root: string, dir: string): Promise<void> {
  const info = await Deno.lstat(root).catch(() => undefined);
  if (info && !info.isDirectory && !info.isSymlink) {
    throw new Error(`Cannot create the folder "${dir}": a file of that name exists`);
  }
  try {
    await Deno.mkdir(root, { recursive: true });
  } catch (error) {
    const raw = error instanceof Error ? error.message : String(error);
    const reason = raw.replace(/ \(os error \d+\).*$/s, "");
    throw new Error(
      `Cannot create the folder "${dir}": ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`,
    );
  }
}

async function addTask(
  path: string,
  task: string,
  key: "tasks" | "scripts",
): Promise<InitResult["denoJson"]> {
  let text: string;
  try {
    // Read as slop reads its own settings: a FIFO in its place would hold `slop init` for good, a
    // link to `/dev/zero` would be read until memory ran out.
    text = await readSettingText(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      throw new Error(`Cannot read "${shownPath(path)}": ${errorText(error)}`);
    }
    // Only the task: with a `nodeModulesDir` here, `deno task` would install a package.json's
    // dependencies into the project (slop's own modules need no setting of the project's).
    const fresh = { tasks: { context: task } };
    await Deno.writeTextFile(path, JSON.stringify(fresh, null, 2) + "\n", { createNew: true })
      .catch((error) => {
        throw writeFailure(path, error);
      });
    return "created";
  }
  // Written into the text as it stands: comments, trailing commas and layout are kept.
  const edited = withContextTask(text, task, key);
  if (edited === undefined) return "manual";
  if (edited === "kept") return "kept";
  await writeAtomic(path, edited).catch((error) => {
    throw writeFailure(path, error);
  });
  return "added";
}

/**
 * Run `slop init [dir]`; resolves to the exit code.
 *
 * @example
 * ```ts
 * import { runInit } from "./init.ts";
 * // const code = await runInit(".", {});
 * ```
 */
export async function runInit(dir: string | undefined, flags: InitFlags): Promise<number> {
  let result: InitResult;
  try {
    result = await initProject(dir ?? ".");
  } catch (error) {
    printError(error instanceof Error ? error.message : String(error));
    return 1;
  }
  if (flags.quiet) return 0;
  // Another folder than this one (a package of a monorepo): files are named from here, and the
  // commands are said to run there.
  const folder = relative(Deno.cwd(), resolve(dir ?? ".")).split(sep).join("/");
  const at = (name: string) => folder ? `${folder}/${name}` : name;
  console.log(
    result.config === "created"
      ? `slop: wrote ${at("slop.config.ts")}`
      : `slop: kept the existing config ${at(result.configFile)}`,
  );
  for (const line of initLines(result, folder)) console.log(line);
  return 0;
}

/** What `slop init` says it did (in `folder`, relative to here; "" for here), and how to build. */
function initLines(result: InitResult, folder: string): string[] {
  if (result.denoJson === "none") return commandLines(result, folder);
  const name = folder ? `${folder}/${result.denoJsonName}` : result.denoJsonName;
  const node = result.denoJsonName === "package.json";
  const what = node ? "script" : "task";
  const [run, bare] = node
    ? scriptCommands(result.runner ?? "npm")
    : ["deno task context", "deno task context --no-server"];
  const messages = {
    created: `slop: wrote ${name} with the "context" ${what}`,
    added: `slop: added the "context" ${what} to ${name}`,
    kept: `slop: kept the existing "context" ${what} in ${name}`,
    manual: `slop: ${name} is not a JSON object slop can edit, left it alone: add the ${what}\n` +
      `  "context": ${JSON.stringify(result.task)}`,
  };
  const lines = [messages[result.denoJson]];
  if (result.config === "created" || result.denoJson !== "kept") {
    const there = folder ? `in ${shellWord(folder)}, ` : "";
    lines.push(
      // Each build writes the next number: one built before init wrote `context_001.md`.
      `slop: ${there}run \`${run}\` (or \`${buildCommand(result.task)}\`) to build the next ` +
        "context document (its path is the build's first line: .slop/out/context_NNN.md by default)",
    );
  }
  if (result.localPath !== undefined && result.denoJson !== "kept") {
    lines.push(
      `slop: the ${what} runs slop's files by their path on this machine ` +
        `(${result.localPath}): for a ${what} that runs in other checkouts too, install the ` +
        `slop command (\`deno task install\` in slop's folder) and make it ` +
        `\`slop build${TASK_SERVER}\``,
    );
  }
  if (result.denoJson !== "kept" && result.task.endsWith(" --server")) {
    lines.push(
      `slop: the ${what} builds in a build server kept warm between builds, which exits 15 ` +
        `minutes after the last one (\`${bare}\` builds without it)`,
    );
  }
  return lines;
}

/**
 * The command that builds once without the task: the task's own command without `--server`
 * (`slop build`, or `deno run -A ../slop/cli.ts build` where slop is not installed).
 */
function buildCommand(task: string): string {
  return task.endsWith(" --server") ? task.slice(0, -" --server".length) : task;
}

/**
 * What `slop init` says in a project of another toolchain: that it wrote no task, and the
 * command to build with, which every checkout with slop installed runs the same.
 */
function commandLines(result: InitResult, folder: string): string[] {
  const there = folder ? `in ${shellWord(folder)}, ` : "";
  const lines = [
    result.toolchain?.startsWith("../")
      ? `slop: wrote no task: ${result.toolchain} makes this folder part of the project above, ` +
        'and slop adds its "context" task only to a deno.json or package.json in the folder it ' +
        "sets up"
      : `slop: wrote no task: ${result.toolchain} makes this a project of another toolchain, ` +
        'and slop adds its "context" task only to a deno.json or package.json that is there',
    `slop: ${there}run \`${result.task}\` to build the next context document ` +
    "(its path is the build's first line: .slop/out/context_NNN.md by default)",
  ];
  if (result.task.endsWith(" --server")) {
    lines.push(
      "slop: --server builds in a build server kept warm between builds, which exits 15 " +
        `minutes after the last one (\`${
          result.task.slice(0, -" --server".length)
        }\` builds without it)`,
    );
  }
  return lines;
}
