import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext } from "../../mod.ts";
import { changedSince } from "../../pipeline/since.ts";
import { firstParentLog } from "../../pipeline/_git_history.ts";
import { git, gitInit, makeProject } from "../_helpers.ts";

/**
 * A FIFO (or socket) in git's store, where slop does not look before each git call: a loose
 * object the history reads, a branch's ref. git's open of it waits for a writer for good: the
 * history read (the budget's change counts, a task's co-change) held the build until a plugin's
 * deadline, which named the plugin, not the file.
 */
async function repoWithFifo(place: (root: string) => Promise<string>) {
  const root = await makeProject({
    "a.ts": "export const a = 1;\n",
    "b.ts": "export const b = 2;\n",
  });
  await gitInit(root);
  await Deno.writeTextFile(join(root, "a.ts"), "export const a = 3;\n");
  await git(root, "commit", "-qam", "two");
  await git(root, "branch", "other");
  const path = await place(root);
  await Deno.remove(path);
  const made = await new Deno.Command("mkfifo", { args: [path] }).output();
  assert.ok(made.success, "mkfifo");
  return { root, path };
}

/** `work`, or a rejection once it has run for a minute (the hang this guards against). */
async function withinAMinute<T>(work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("waited 60 s: git hangs")), 60_000);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

Deno.test("a FIFO loose object is named in one warning, and the build goes on without the history", async () => {
  const { root, path } = await repoWithFifo(async (root) => {
    // The newest commit's tree: every `git log --name-only` reads it.
    const tree = (await git(root, "rev-parse", "HEAD^{tree}")).trim();
    return join(root, ".git", "objects", tree.slice(0, 2), tree.slice(2));
  });
  const log = await withinAMinute(firstParentLog(root, 10));
  assert.equal(log, undefined);
  const result = await withinAMinute(
    buildContext({ cwd: root, inline: { budget: { tokens: 600 }, task: "fix a" } }, {
      write: false,
    }),
  );
  assert.deepEqual(result.manifest.files.map((f) => f.path), ["a.ts", "b.ts"]);
  assert.deepEqual(result.warnings, [
    `git cannot read the history (git's file "${path}" is a FIFO or a socket, which git would ` +
    "wait on for good): the build goes without it (a first order by sizes, a budget without " +
    "change counts, a task without co-change and commit messages); put a regular file in its place",
  ]);
});

Deno.test("a FIFO ref of a branch is named when --since names the branch", async () => {
  const { root, path } = await repoWithFifo((root) =>
    Promise.resolve(join(root, ".git", "refs", "heads", "other"))
  );
  await assert.rejects(
    () => withinAMinute(changedSince(root, "other")),
    new RegExp(`"${path.replaceAll(".", "\\.")}" is a FIFO or a socket, which git would wait on`),
  );
});
