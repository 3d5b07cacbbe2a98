/**
 * Per-file cost of the test suite: runs each test file by itself,
 * `CI=true TZ=Z deno test -A -q --no-check FILE` under `/usr/bin/time`, one
 * after another, and prints a Markdown table of CPU (user + sys) and wall,
 * dearest first, with the totals. Type-check once before (`deno check` of the
 * files) so no run pays for it.
 *
 *     deno run -A bench/suite_files.ts [--json out.json] [--top 40] [--jobs 1] [FILE|FOLDER ...]
 *
 * With no files named it runs every `tests/**\/*_test.ts`. `--jobs 2` runs two files at a time
 * (CPU is each file's own; wall then includes waiting for the other's core).
 *
 * @module
 */

import { join, relative } from "node:path";

interface Row {
  file: string;
  user: number;
  sys: number;
  wall: number;
  ok: boolean;
}

const REPO = join(import.meta.dirname!, "..");

async function testFiles(roots: string[]): Promise<string[]> {
  const out: string[] = [];
  async function walk(path: string): Promise<void> {
    const info = await Deno.stat(path);
    if (info.isFile) {
      if (path.endsWith("_test.ts")) out.push(relative(REPO, path));
      return;
    }
    for await (const entry of Deno.readDir(path)) {
      if (entry.name === "fixtures" || entry.name === "snippets") continue;
      await walk(join(path, entry.name));
    }
  }
  for (const root of roots) await walk(join(REPO, root));
  return out.sort();
}

async function measure(file: string): Promise<Row> {
  const timeFile = await Deno.makeTempFile();
  const command = new Deno.Command("/usr/bin/time", {
    args: ["-o", timeFile, "-f", "%e %U %S", "deno", "test", "-A", "-q", "--no-check", file],
    cwd: REPO,
    env: { CI: "true", TZ: "Z" },
    stdout: "null",
    stderr: "null",
  });
  const { success } = await command.output();
  const text = await Deno.readTextFile(timeFile);
  await Deno.remove(timeFile);
  const last = text.trim().split("\n").at(-1)!.split(" ").map(Number);
  return { file, wall: last[0], user: last[1], sys: last[2], ok: success };
}

function table(rows: Row[], top: number): string {
  const sorted = [...rows].sort((a, b) => b.user + b.sys - (a.user + a.sys));
  const lines = ["| file | CPU s | wall s |", "| --- | ---: | ---: |"];
  for (const row of sorted.slice(0, top)) {
    const mark = row.ok ? "" : " (failed)";
    lines.push(
      `| \`${row.file}\`${mark} | ${(row.user + row.sys).toFixed(2)} | ${row.wall.toFixed(2)} |`,
    );
  }
  const cpu = rows.reduce((sum, row) => sum + row.user + row.sys, 0);
  const wall = rows.reduce((sum, row) => sum + row.wall, 0);
  lines.push(`| all ${rows.length} files | ${cpu.toFixed(1)} | ${wall.toFixed(1)} |`);
  return lines.join("\n");
}

if (import.meta.main) {
  const args = [...Deno.args];
  let json = "";
  let top = 40;
  let jobs = 1;
  const roots: string[] = [];
  while (args.length) {
    const arg = args.shift()!;
    if (arg === "--json") json = args.shift()!;
    else if (arg === "--top") top = Number(args.shift());
    else if (arg === "--jobs") jobs = Number(args.shift());
    else roots.push(arg);
  }
  const files = await testFiles(roots.length ? roots : ["tests"]);
  const rows: Row[] = [];
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const row = await measure(file);
      rows.push(row);
      console.error(`${(row.user + row.sys).toFixed(2)} ${row.wall.toFixed(2)} ${file}`);
      if (json) await Deno.writeTextFile(json, JSON.stringify(rows, null, 1));
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  console.log(table(rows, top));
}
