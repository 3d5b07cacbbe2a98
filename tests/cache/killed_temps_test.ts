import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext } from "../../mod.ts";
import { makeProject } from "../_helpers.ts";

/** The id of a process that ran and is gone. */
async function deadPid(): Promise<number> {
  const child = new Deno.Command("true").spawn();
  await child.status;
  return child.pid;
}

Deno.test("a cache pack's temp file left by a killed build (Ctrl-C) is removed by the next build that writes a pack", async () => {
  const root = await makeProject({ "a.py": "x = 1\n", "b.py": "y = 2\n" });
  const packs = join(root, ".slop", "cache", "packs");
  Deno.mkdirSync(packs, { recursive: true });
  const gone = await deadPid();
  const minutesAgo = new Date(Date.now() - 5 * 60_000);
  const temp = (pid: number, id: string, mtime?: Date) => {
    const path = join(packs, `${"ab".repeat(32)}.${pid}.${id}.tmp`);
    Deno.writeFileSync(path, new Uint8Array(4096));
    if (mtime) Deno.utimeSync(path, mtime, mtime);
    return path;
  };
  // A killed build's half-written pack: its process is gone, the file unchanged for minutes.
  const killed = temp(gone, "0123abcd", minutesAgo);
  // A pack a running process writes (this one), and one written a moment ago (a build on
  // another machine sharing the folder, whose process this one cannot see): both stay.
  const running = temp(Deno.pid, "4567abcd", minutesAgo);
  const fresh = temp(gone, "89abcdef");
  await buildContext({ cwd: root }, { write: false });
  const left = [...Deno.readDirSync(packs)].map((e) => join(packs, e.name));
  assert.ok(!left.includes(killed), "the killed build's temp file is removed");
  assert.ok(left.includes(running) && left.includes(fresh), left.join("\n"));
  assert.equal(left.filter((p) => !p.endsWith(".tmp")).length, 1, "the new pack is written");
  await Deno.remove(root, { recursive: true });
});

Deno.test("a pack index file's temp file left by a killed build is removed by the next build that saves one", async () => {
  const root = await makeProject({ "a.py": "x = 1\n", "b.py": "y = 2\n" });
  await buildContext({ cwd: root }, { write: false });
  const stamps = join(root, ".slop", "cache", "pack-stamps");
  const [stamp] = [...Deno.readDirSync(stamps)].map((e) => e.name);
  const killed = join(stamps, `${stamp}.index.${await deadPid()}.0123abcd.tmp`);
  Deno.writeFileSync(killed, new Uint8Array(4096));
  const minutesAgo = new Date(Date.now() - 5 * 60_000);
  Deno.utimeSync(killed, minutesAgo, minutesAgo);
  // The first build after the pack was written reads its records from it and saves them.
  await buildContext({ cwd: root }, { write: false });
  const left = [...Deno.readDirSync(stamps)].map((e) => e.name).sort();
  assert.deepEqual(left, [stamp, `${stamp}.index`]);
  await Deno.remove(root, { recursive: true });
});
