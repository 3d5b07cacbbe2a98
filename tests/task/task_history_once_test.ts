// A task build reads the recent git history once: the map's kept files and the ranking's
// co-change signal count changes in the same log (pipeline/task.ts, `taskHistory`).
import assert from "node:assert/strict";
import { buildContext, type SlopConfig } from "../../mod.ts";
import { CO_CHANGE_COMMITS } from "../../pipeline/co_change.ts";
import { git, gitInit, tempDir } from "../_helpers.ts";
import { taskProject } from "./_project.ts";

/** The arguments of every `git log` this process starts while `run` runs. */
async function gitLogs(run: () => Promise<unknown>): Promise<string[][]> {
  const Real = Deno.Command;
  const logs: string[][] = [];
  // A spy over Deno.Command: it records the `git log` calls and runs them as they are.
  Deno.Command = class extends Real {
    constructor(command: string | URL, options?: Deno.CommandOptions) {
      const args = options?.args?.map(String) ?? [];
      if (String(command) === "git" && args.includes("log")) logs.push(args);
      super(command, options);
    }
  };
  try {
    await run();
  } finally {
    Deno.Command = Real;
  }
  return logs;
}

/** The task project in git, two of its files changed in later commits. */
async function historyProject(): Promise<string> {
  const root = await taskProject();
  await gitInit(root);
  for (let i = 0; i < 3; i++) {
    await Deno.writeTextFile(`${root}/src/retry.py`, `# change ${i}\n`, { append: true });
    await git(root, "commit", "-qam", `change ${i}`);
  }
  return root;
}

async function buildFor(root: string, config: SlopConfig) {
  const stateDir = await tempDir({ prefix: "slop_state_" });
  return await buildContext({ cwd: root, inline: config, stateDir }, { write: false });
}

/** Whether a `git log` reads the co-change history (its last `CO_CHANGE_COMMITS` commits). */
const isHistory = (args: string[]) => args.includes(String(CO_CHANGE_COMMITS));

Deno.test("a task build runs git log for its history once, with a budget or without", async () => {
  const root = await historyProject();
  for (const budget of [{ tokens: 6000 }, {}]) {
    // A new commit each time: the last reads from HEAD are kept while HEAD is the same.
    await Deno.writeTextFile(`${root}/src/retry.py`, "# again\n", { append: true });
    await git(root, "commit", "-qam", `again ${JSON.stringify(budget)}`);
    // The same build without a task reads no history (its order's seed, and a budget's change
    // counts, are logs of their own, each read once).
    const plain = await gitLogs(() => buildFor(root, { budget }));
    assert.deepEqual(plain.filter(isHistory), []);
    let result: Awaited<ReturnType<typeof buildFor>> | undefined;
    const task = await gitLogs(async () => {
      result = await buildFor(root, { task: "retry the request", budget });
    });
    // With a task, the history once, and no other log than the build without a task reads (a
    // log from HEAD is read once while HEAD and git's config are the same: the order's seed the
    // build without a task read is not read again).
    assert.equal(task.filter(isHistory).length, 1, JSON.stringify({ budget, task }));
    // Each read marks its records anew (pipeline/_git.ts): the marks are left out of the compare.
    const call = (args: string[]) => args.join(" ").replace(/%x01[0-9a-f]{32}/g, "%x01<mark>");
    const distinct = (logs: string[][]) => [...new Set(logs.map(call))].sort();
    const others = distinct(task.filter((args) => !isHistory(args)));
    assert.deepEqual(others.filter((log) => !distinct(plain).includes(log)), []);
    // The history was read and used: the map keeps the most changed file in full.
    if (budget.tokens) {
      const view = result!.manifest.files.find((f) => f.path === "src/retry.py")?.view;
      assert.equal(view, "full");
    }
  }
});
