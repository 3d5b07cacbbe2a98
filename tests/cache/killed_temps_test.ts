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
