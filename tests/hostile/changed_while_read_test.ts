import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfig } from "../../pipeline/config.ts";
import { resolveTargets } from "../../pipeline/resolve.ts";
import { readTarget } from "../../pipeline/read.ts";
import type { SourceFile } from "../../pipeline/types.ts";
import { lstatFile } from "../../pipeline/file_stat.ts";
import { tallyWork } from "../../pipeline/helpers.ts";
import { makeProject } from "../_helpers.ts";

/**
 * A file that changes kind between the resolve stage's look at it (its `lstat`, handed to the
 * read stage) and its read: a build of a tree that is being edited (a checkout, a generator, a
 * test that makes FIFOs). The read trusts only what it opened: a FIFO opened as the file would
 * wait forever for a writer, a device would be read as the file (`/dev/zero` without end).
 */
async function readAfterSwap(swap: (path: string) => void, files: Record<string, string>) {
  const root = await makeProject(files);
  const config = await loadConfig({ cwd: root, inline: { maxFileSize: 64 } });
  const { targets } = await resolveTargets(config);
  const looked = new Map(targets.map((t) => [t.path, lstatFile(t.absPath)]));
  for (const target of targets) swap(target.absPath);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("waited 60 s: the read hangs")), 60_000);
  });
  try {
    const read = targets.map((t) => readTarget(t, config, { lstat: looked.get(t.path) }));
    return await Promise.race([Promise.all(read), late]);
  } finally {
    clearTimeout(timer);
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("a file that became a FIFO, a device or a folder after it was listed is skipped, never read", async () => {
  const kinds: Record<string, (path: string) => void> = {
    "fifo.txt": (path) => {
      Deno.removeSync(path);
      assert.ok(new Deno.Command("mkfifo", { args: [path] }).outputSync().success, "mkfifo");
    },
    "device.txt": (path) => {
      Deno.removeSync(path);
      Deno.symlinkSync("/dev/null", path);
    },
    "folder.txt": (path) => {
      Deno.removeSync(path);
      Deno.mkdirSync(path);
    },
  };
  const files = await readAfterSwap(
    (path) => kinds[path.slice(path.lastIndexOf("/") + 1)]?.(path),
    { "fifo.txt": "a\n", "device.txt": "b\n", "folder.txt": "c\n", "kept.txt": "d\n" },
  );
  const reasons = Object.fromEntries(files.map((f) => [f.path, f.error?.reason ?? f.text]));
  assert.deepEqual(reasons, {
    "device.txt": "not a regular file",
    "fifo.txt": "not a regular file",
    "folder.txt": "is a directory",
    "kept.txt": "d\n",
  });
});

Deno.test("a file that grew past the size limit after it was listed is skipped, its growth not read", async () => {
  let files: SourceFile[] = [];
  const work = await tallyWork(async () => {
    files = await readAfterSwap((path) => {
      if (path.endsWith("grown.txt")) Deno.writeTextFileSync(path, "x".repeat(100_000));
    }, { "grown.txt": "small\n" });
  });
  assert.deepEqual(files.map((f) => [f.error?.reason, f.size]), [
    ["file grew over the limit of 64 bytes", 100_000],
  ]);
  // A log or a generator's output may grow by gigabytes: the read stops past the limit.
  assert.ok((work.get("bytes hashed") ?? 0) <= 65, `${work.get("bytes hashed")} bytes hashed`);
});

Deno.test("a symbolic link removed while the read follows it is a row with its reason, not a failed build", async () => {
  const root = await makeProject({ "target.txt": "t\n" });
  Deno.symlinkSync("target.txt", join(root, "link.txt"));
  const config = await loadConfig({ cwd: root });
  const { targets } = await resolveTargets(config);
  const link = targets.find((t) => t.path === "link.txt")!;
  // The link is removed at the worst moment: right after the read found where it leads.
  const realPath = Deno.realPath;
  Deno.realPath = async (path) => {
    const real = await realPath(path);
    if (String(path).endsWith("link.txt")) Deno.removeSync(path);
    return real;
  };
  try {
    const file = await readTarget(link, config);
    assert.deepEqual(file.error, { status: "error", reason: "file not found" });
  } finally {
    Deno.realPath = realPath;
    await Deno.remove(root, { recursive: true });
  }
});
