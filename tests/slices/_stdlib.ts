/**
 * The machine's Python standard library, the real text the slice tests edit.
 *
 * @module
 */

import { join } from "node:path";

/** Text of a module of the machine's Python stdlib (e.g. `textwrap.py`). */
export async function stdlibFile(name: string): Promise<string> {
  const out = await new Deno.Command("python3", {
    args: ["-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])"],
    stdout: "piped",
  }).output();
  const dir = new TextDecoder().decode(out.stdout).trim();
  return await Deno.readTextFile(join(dir, name));
}

/** 1-based first and last line of a top-level `def name(` up to its last non-blank line. */
export function topLevelDef(lines: string[], name: string): [number, number] {
  const start = lines.findIndex((l) => l.startsWith(`def ${name}(`));
  if (start < 0) throw new Error(`No top-level def "${name}"`);
  let end = start + 1;
  while (end < lines.length && !/^\S/.test(lines[end])) end++;
  while (lines[end - 1].trim() === "") end--;
  return [start + 1, end];
}
