/**
 * The suite's groups: which test files share one test worker.
 *
 * `deno test` runs each file it is given in a worker of its own, and a worker pays again for what
 * the files before it paid: loading slop's modules (about 320 of them for `mod.ts`) and warming
 * them up (the secret rules' patterns, the tokenizer's tables, tree-sitter's runtime). `deno task
 * test` gives it one runner file a group instead (`tests/_suite/<group>.ts`), which imports every
 * test file of the group's folders, so those files run one after another in one worker. Each
 * file can still be run alone (`deno test -A tests/secrets/paths_test.ts`), and `deno test -A
 * tests/` runs every file in a worker of its own, as before.
 *
 * The task starts `deno test` with `--v8-flags=--expose-gc`: a build that asks for a full
 * collection (a spilling build's stage ends, a resident's or the build server's rebuilds) then
 * gets V8's own, one full collection, instead of the low-memory pair a process without the flag
 * gets (`accel/collect.ts`), which took most of a small spilling build's CPU (bench/README.md,
 * "The suite's time (thirtieth session, suite43)").
 *
 * A file that tests what a worker holds once (the runtimes its thread made, the memory it holds)
 * cannot share one: it is listed in {@linkcode ALONE} with the reason, and the task gives it to
 * `deno test` on its own. `tests/core/suite_groups_test.ts` checks that every test file is run
 * exactly once: by one group, or alone.
 *
 * @module
 */

import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { guardEnv, REPO } from "./_helpers.ts";

/** A group: the test folders (under `tests/`) it runs, or its part of them. */
export interface Group {
  /** Folders under `tests/` whose `*_test.ts` files the group runs. */
  folders: string[];
  /**
   * `[k, n]`: only the k-th of n parts of the folders' files (k from 1; the files in name order,
   * every n-th from the k-th), for a folder too long for one worker.
   */
  part?: [number, number];
}

/**
 * The groups by name; `tests/_suite/<name>.ts` runs each. A folder whose files take long is split
 * into parts, so that no group keeps the run waiting at its end (four workers run at a time).
 */
export const GROUPS: Record<string, Group> = {
  cli_1: { folders: ["cli"], part: [1, 5] },
  cli_2: { folders: ["cli"], part: [2, 5] },
  cli_3: { folders: ["cli"], part: [3, 5] },
  cli_4: { folders: ["cli"], part: [4, 5] },
  cli_5: { folders: ["cli"], part: [5, 5] },
  hostile_1: { folders: ["hostile"], part: [1, 4] },
  hostile_2: { folders: ["hostile"], part: [2, 4] },
  hostile_3: { folders: ["hostile"], part: [3, 4] },
  hostile_4: { folders: ["hostile"], part: [4, 4] },
  views_1: { folders: ["views"], part: [1, 4] },
  views_2: { folders: ["views"], part: [2, 4] },
  views_3: { folders: ["views"], part: [3, 4] },
  views_4: { folders: ["views"], part: [4, 4] },
  scaling_1: { folders: ["scaling"], part: [1, 3] },
  scaling_2: { folders: ["scaling"], part: [2, 3] },
  scaling_3: { folders: ["scaling"], part: [3, 3] },
  cache_1: { folders: ["cache"], part: [1, 3] },
  cache_2: { folders: ["cache"], part: [2, 3] },
  cache_3: { folders: ["cache"], part: [3, 3] },
  secrets_1: { folders: ["secrets"], part: [1, 2] },
  secrets_2: { folders: ["secrets"], part: [2, 2] },
  core_1: { folders: ["core"], part: [1, 2] },
  core_2: { folders: ["core"], part: [2, 2] },
  ordering_1: { folders: ["ordering"], part: [1, 2] },
  ordering_2: { folders: ["ordering"], part: [2, 2] },
  task_1: { folders: ["task"], part: [1, 2] },
  task_2: { folders: ["task"], part: [2, 2] },
  // The MCP server and the build server (`tests/server/`).
  mcp: { folders: ["mcp", "server"] },
  action_skills: { folders: ["action", "skills"] },
  docs_install_examples: { folders: ["docs", "install", "examples"] },
  budget_knowledge_slices: { folders: ["budget", "knowledge", "slices"] },
  providers_personas_llm_report: { folders: ["providers", "personas", "llm", "report"] },
  rank_history_beads_dedup: { folders: ["rank", "history", "beads", "dedup"] },
};

/**
 * Test files that need a worker of their own, by path from the repository, with the reason.
 */
export const ALONE: Record<string, string> = {
  "tests/core/glob_test.ts":
    "checks that picomatch is loaded only once a pattern needs it, which an earlier file's build does",
  "tests/views/parse_abort_isolation_test.ts":
    "counts the tree-sitter runtimes its thread has made and makes that runtime trap",
};

/** The test files of a group, as paths from the repository, in name order. */
export function groupFiles(group: Group): string[] {
  const files: string[] = [];
  for (const folder of group.folders) {
    for (const entry of Deno.readDirSync(join(REPO, "tests", folder))) {
      const path = `tests/${folder}/${entry.name}`;
      if (entry.isFile && entry.name.endsWith("_test.ts") && !(path in ALONE)) files.push(path);
    }
  }
  files.sort();
  if (!group.part) return files;
  const [k, n] = group.part;
  return files.filter((_, i) => i % n === k - 1);
}

/**
 * Import the test files of the group `name` (their `Deno.test` calls register their tests in the
 * worker that runs the calling runner file), then refuse changes to the process environment
 * while the tests run (`guardEnv` of `_helpers.ts`).
 *
 * @example
 * ```ts ignore
 * // tests/_suite/secrets.ts
 * import { runGroup } from "../_suite.ts";
 * await runGroup("secrets");
 * ```
 */
export async function runGroup(name: string): Promise<void> {
  const group = GROUPS[name];
  if (!group) throw new Error(`No test group "${name}" in tests/_suite.ts`);
  for (const path of groupFiles(group)) await import(pathToFileURL(join(REPO, path)).href);
  guardEnv();
}
