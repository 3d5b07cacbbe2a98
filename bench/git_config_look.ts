/**
 * The look at git's config files slop makes before each git call (`waitingGitFile`, which reads
 * every config file and include for a FIFO) and the history's stamp (`gitConfigStamp`), side by
 * side with another checkout's (`--old <repo>`), in one run, alternating, as CPU medians. The
 * repository's config includes `--includes` small files (each a few settings, comments and
 * quoted paths; every other path followed by a comment unless `--no-comments`), a shape where the
 * reading of each file shows.
 *
 * ```sh
 * deno run -A bench/git_config_look.ts --old /tmp/main_checkout --includes 3000 --rounds 9
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import { join } from "node:path";

const { values } = parseArgs({
  options: {
    old: { type: "string" },
    includes: { type: "string", default: "3000" },
    rounds: { type: "string", default: "9" },
    "no-comments": { type: "boolean", default: false },
  },
});
const count = Number(values.includes);
const root = await Deno.makeTempDir({ prefix: "slop_config_look_" });
const git = (...args: string[]) => new Deno.Command("git", { args, cwd: root }).outputSync();
git("init", "-q");
const lines = ["[core]", "\tbare = false"];
for (let i = 0; i < count; i++) {
  const name = `inc${i}.cfg`;
  await Deno.writeTextFile(
    join(root, ".git", name),
    `# settings ${i}\n[alias]\n\tst${i} = status --short ; a comment\n[remote "r${i}"]\n` +
      `\turl = "https://example.com/r${i}.git"\n`,
  );
  // A comment after a path (which the line reader of before took as part of the name).
  const comment = !values["no-comments"] && i % 2;
  lines.push(comment ? `[include]\n\tpath = ${name} # mine` : `[include]\n\tpath = "${name}"`);
}
await Deno.writeTextFile(join(root, ".git", "config"), lines.join("\n") + "\n");

type Look = { waitingGitFile(cwd: string): unknown; gitConfigStamp(cwd: string): string };
const here: Look = await import("../pipeline/_git_wait_files.ts");
const old: Look | undefined = values.old
  ? await import(`file://${values.old}/pipeline/_git_wait_files.ts`)
  : undefined;
const sides: Array<[string, Look]> = [
  ["new", here],
  ...(old ? [["old", old] as [string, Look]] : []),
];
const times = new Map<string, number[]>(sides.map(([name]) => [name, []]));
const files = new Map<string, number>();
for (let round = 0; round < Number(values.rounds); round++) {
  for (const [name, look] of round % 2 ? [...sides].reverse() : sides) {
    const start = performance.now();
    look.waitingGitFile(root);
    const stamp = look.gitConfigStamp(root);
    times.get(name)!.push(performance.now() - start);
    files.set(name, stamp.split("\0").length);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name] of sides) {
  console.log(
    `${name}: ${median(times.get(name)!).toFixed(1)} ms median of ${values.rounds} ` +
      `(look and stamp, ${count} includes), ${files.get(name)} config files stamped`,
  );
}
await Deno.remove(root, { recursive: true });
