/**
 * `slop init`: write a commented `slop.config.ts` and add the `context`
 * task to the project's deno.json (or deno.jsonc); in a Node project (a
 * package.json and no Deno config) a `context` script in package.json
 * instead, and a config without an import of slop, so that neither the
 * project's tsc nor its editor's Deno extension is drawn in. The task is
 * written into the file as it stands (comments and layout kept). Never
 * overwrites: an existing config or task is kept, and a file it cannot read
 * as a JSON object with comments is left alone with the line to add printed
 * instead.
 *
 * @module
 */

import { join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { existsSync } from "node:fs";
import { writeAtomic } from "../pipeline/emit.ts";
import { printError } from "./_output.ts";
import { withContextTask } from "./_jsonc.ts";
import { CONFIG_FILES } from "../pipeline/config.ts";

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
  /** `created`, `added` (task added to an existing file), `kept` or `manual` (a file slop cannot edit). */
  denoJson: "created" | "added" | "kept" | "manual";
  /** The task command written or suggested. */
  task: string;
  /**
   * The file the task is in or for: `deno.json`, `deno.jsonc` when that exists, or
   * `package.json` in a Node project (a package.json and no Deno config).
   */
  denoJsonName: string;
}

/** Where a project keeps its tasks: its Deno config, else a Node project's package.json, else a new deno.json. */
function taskFile(root: string): { name: string; key: "tasks" | "scripts" } {
  for (const name of ["deno.jsonc", "deno.json"]) {
    if (existsSync(join(root, name))) return { name, key: "tasks" };
  }
  if (existsSync(join(root, "package.json"))) return { name: "package.json", key: "scripts" };
  return { name: "deno.json", key: "tasks" };
}

/**
 * How a project at `dir` refers to a slop module: a relative path when slop
 * is on disk, else the URL.
 */
function slopSpecifier(dir: string, file: string): string {
  const url = new URL(`../${file}`, import.meta.url);
  if (url.protocol !== "file:") return url.href;
  const rel = relative(dir, fileURLToPath(url)).split(sep).join("/");
  return rel.startsWith(".") ? rel : `./${rel}`;
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
 * A relative path as an import specifier: `%`, `#` and `?` are escaped, which
 * a URL would read as an escape, a fragment or a query.
 */
function importSpecifier(path: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) return path;
  return path.replace(/[%#?]/g, (c) => encodeURIComponent(c));
}

/**
 * The commented config `slop init` writes.
 */
function configTemplate(configSpecifier: string | undefined): string {
  // Without the import (a Node project): a plain object loads the same with any slop.
  const head = configSpecifier === undefined
    ? `// A plain object: slop's defineConfig (its config.ts) would only add types, and importing it
// would draw slop's Deno modules into this project's tsc.

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
  ],
  // Globs left out on top of .gitignore.
  exclude: [],
  // The view for files that set none: full, summary, skeleton, outline, masked, custom,
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
  // No V8 flags: a build in the task's process starts again with them (cli/_relaunch.ts).
  const task = `deno run -A ${shellWord(slopSpecifier(root, "cli.ts"))} build${TASK_SERVER}`;
  let config: InitResult["config"] = "kept";
  const configPath = join(root, "slop.config.ts");
  await makeFolder(root, dir);
  const file = taskFile(root);
  const specifier = file.key === "scripts"
    ? undefined
    : importSpecifier(slopSpecifier(root, "config.ts"));
  if (
    !CONFIG_FILES.some((n) => existsSync(join(root, n)))
  ) {
    try {
      // createNew: fails rather than overwrite a file that appeared meanwhile.
      await Deno.writeTextFile(configPath, configTemplate(specifier), { createNew: true });
      config = "created";
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
  }
  const denoJson = await addTask(join(root, file.name), task, file.key);
  return { config, denoJson, task, denoJsonName: file.name };
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
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    // Only the task: with a `nodeModulesDir` here, `deno task` would install a package.json's
    // dependencies into the project (slop's own modules need no setting of the project's).
    const fresh = { tasks: { context: task } };
    await Deno.writeTextFile(path, JSON.stringify(fresh, null, 2) + "\n", { createNew: true });
    return "created";
  }
  // Written into the text as it stands: comments, trailing commas and layout are kept.
  const edited = withContextTask(text, task, key);
  if (edited === undefined) return "manual";
  if (edited === "kept") return "kept";
  await writeAtomic(path, edited);
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
      : "slop: kept the existing slop config",
  );
  for (const line of initLines(result, folder)) console.log(line);
  return 0;
}

/** What `slop init` says it did (in `folder`, relative to here; "" for here), and how to build. */
function initLines(result: InitResult, folder: string): string[] {
  const name = folder ? `${folder}/${result.denoJsonName}` : result.denoJsonName;
  const node = result.denoJsonName === "package.json";
  const [what, run] = node ? ["script", "npm run context"] : ["task", "deno task context"];
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
      `slop: ${there}run \`${run}\` (or \`slop build\`) to build .slop/out/context_001.md`,
    );
  }
  if (result.denoJson !== "kept" && result.task.endsWith(" --server")) {
    const bare = node ? "npm run context -- --no-server" : "deno task context --no-server";
    lines.push(
      `slop: the ${what} builds in a build server kept warm between builds, which exits 15 ` +
        `minutes after the last one (\`${bare}\` builds without it)`,
    );
  }
  return lines;
}
