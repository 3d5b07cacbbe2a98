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

Deno.test("a file that became a FIFO, a link to a device or a folder after it was listed is never read", async () => {
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
    // A link now, checked as one: it leads out of the root (a fresh build says the same).
    "device.txt": "symbolic link leaves the root (set allowOutsideRoot to allow it)",
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

Deno.test("a file that became a symbolic link after it was listed is read as that link: out of the root or to a file the defaults leave out, its target is never read", async () => {
  // A checkout while `slop watch` or the build server builds: the branch has a link where the
  // file was (Capistrano's `config/database.yml -> /var/www/app/shared/config/database.yml`).
  const outside = await makeProject({ "secret.txt": "OUTSIDE_SECRET\n" });
  const files = await readAfterSwap((path) => {
    const name = path.slice(path.lastIndexOf("/") + 1);
    if (!["out.txt", "env.txt", "in.txt"].includes(name)) return;
    Deno.removeSync(path);
    if (name === "out.txt") Deno.symlinkSync(join(outside, "secret.txt"), path);
    if (name === "env.txt") Deno.symlinkSync(".env", path);
    if (name === "in.txt") Deno.symlinkSync("kept.txt", path);
  }, {
    "out.txt": "a\n",
    "env.txt": "b\n",
    "in.txt": "c\n",
    "kept.txt": "d\n",
    ".env": "PLAIN=hunter2-kept-out\n",
  });
  await Deno.remove(outside, { recursive: true });
  const rows = Object.fromEntries(files.map((f) => [f.path, f.error ?? f.text]));
  assert.deepEqual(rows, {
    "out.txt": {
      status: "error",
      reason: "symbolic link leaves the root (set allowOutsideRoot to allow it)",
    },
    "env.txt": {
      status: "skipped",
      reason: 'a symbolic link to ".env", a file that may hold secrets, skipped by default: ' +
        'name the link by its path in "files" to include it',
    },
    "in.txt": "d\n",
    "kept.txt": "d\n",
    ".env": {
      status: "skipped",
      reason: 'may hold secrets, skipped by default: name it by its path in "files" to include it',
    },
  });
});

Deno.test("a symbolic link retargeted out of the root after it was checked is read at the target checked, never the new one", async () => {
  const root = await makeProject({ "target.txt": "t\n" });
  const outside = await makeProject({ "secret.txt": "OUTSIDE_SECRET\n" });
  Deno.symlinkSync("target.txt", join(root, "link.txt"));
  const config = await loadConfig({ cwd: root });
  const { targets } = await resolveTargets(config);
  const link = targets.find((t) => t.path === "link.txt")!;
  // Retargeted at the worst moment: right after the read found where it leads and checked it.
  const realPath = Deno.realPath;
  Deno.realPath = async (path) => {
    const real = await realPath(path);
    if (String(path).endsWith("link.txt")) {
      Deno.removeSync(path);
      Deno.symlinkSync(join(outside, "secret.txt"), path);
    }
    return real;
  };
  try {
    const file = await readTarget(link, config);
    assert.deepEqual([file.error, file.text], [undefined, "t\n"]);
  } finally {
    Deno.realPath = realPath;
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("a folder above a file swapped for a symbolic link after the listing is not followed out of the root or into a folder left out", async () => {
  // A checkout while `slop watch` or the build server builds: the branch has a link where a folder
  // was (`config -> /etc/app`). The open refuses a link only as the path's last name; the folders
  // above it are checked by where the open file is.
  const outside = await makeProject({ "a.txt": "OUTSIDE_SECRET\n", "b.txt": "OUTSIDE_SECRET\n" });
  const files = await readAfterSwap((path) => {
    const dir = path.slice(0, path.lastIndexOf("/"));
    const name = dir.slice(dir.lastIndexOf("/") + 1);
    if (!["out", "mods", "same"].includes(name)) return;
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch {
      return; // swapped already, for the folder's other file
    }
    const root = dir.slice(0, dir.lastIndexOf("/"));
    if (name === "out") Deno.symlinkSync(outside, dir);
    if (name === "mods") Deno.symlinkSync("node_modules", dir);
    if (name === "same") Deno.symlinkSync(join(root, "kept"), dir);
  }, {
    "out/a.txt": "a\n",
    "out/b.txt": "b\n",
    "mods/a.txt": "c\n",
    "same/a.txt": "d\n",
    "kept/a.txt": "e\n",
    "node_modules/a.txt": "MODULE_TEXT\n",
  });
  await Deno.remove(outside, { recursive: true });
  const rows = Object.fromEntries(files.map((f) => [f.path, f.error ?? f.text]));
  const out = {
    status: "error",
    reason: "a folder on its path is a symbolic link that leaves the root (set allowOutsideRoot " +
      "to allow it)",
  };
  assert.deepEqual(rows, {
    "kept/a.txt": "e\n",
    "mods/a.txt": {
      status: "skipped",
      reason: 'a symbolic link to "node_modules/a.txt", in a folder slop leaves out of every ' +
        'build (".git", "node_modules", ".slop")',
    },
    "out/a.txt": out,
    "out/b.txt": out,
    "same/a.txt": "e\n",
    "node_modules": {
      status: "skipped",
      reason: 'a folder slop leaves out of every build (".git", "node_modules", ".slop"): its ' +
        "files are not bundled",
    },
  });
});

Deno.test("a root reached through a symbolic link that is pointed at another checkout between builds of one config is read there, not refused", async () => {
  // `root: "./current"` with `current -> releases/v1`, then `-> releases/v2` while the build
  // server or `slop watch` keeps the config: the root's real path is the link's new target.
  const base = await makeProject({ "v1/a.txt": "one\n", "v2/a.txt": "two\n" });
  await Deno.symlink(join(base, "v1"), join(base, "current"));
  const config = await loadConfig({ cwd: join(base, "current") });
  const texts: string[] = [];
  for (const next of ["v2", undefined]) {
    const { targets } = await resolveTargets(config);
    const files = await Promise.all(targets.map((t) => readTarget(t, config)));
    texts.push(...files.map((f) => f.error?.reason ?? f.text ?? ""));
    if (next === undefined) break;
    await Deno.remove(join(base, "current"));
    await Deno.symlink(join(base, next), join(base, "current"));
  }
  await Deno.remove(base, { recursive: true });
  assert.deepEqual(texts, ["one\n", "two\n"]);
});
