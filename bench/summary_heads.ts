/**
 * Which kinds of file the `summary` view shows as their first lines (`**Text**`, often a license
 * header) across mirrors: every text file at each repository's HEAD is summarized in-process and
 * counted by its ending (or its name, for a file with none) when its summary is its first lines.
 * See bench/README.md, "Summaries that were a file's first lines".
 *
 * ```sh
 * deno run -A bench/summary_heads.ts /work/.mirror/*\/repo
 * ```
 *
 * @module
 */

import { summarize } from "../plugins/view_modes/summary.ts";
import { extname } from "../pipeline/paths.ts";

interface Kind {
  files: number;
  bytes: number;
  repos: Set<string>;
  example: string;
}

const kinds = new Map<string, Kind>();
const decoder = new TextDecoder("utf-8", { fatal: true });

async function git(repo: string, args: string[]): Promise<Uint8Array> {
  const out = await new Deno.Command("git", { args: ["-C", repo, ...args], stdout: "piped" })
    .output();
  return out.stdout;
}

for (const repo of Deno.args) {
  const name = repo.replace(/\/repo\/?$/, "").split("/").pop()!;
  const listing = new TextDecoder().decode(await git(repo, ["ls-tree", "-r", "-l", "HEAD"]));
  for (const line of listing.split("\n")) {
    const m = line.match(/^\d+ blob (\w+)\s+(\d+)\t(.+)$/);
    if (!m || Number(m[2]) > 4 * 1024 * 1024 || Number(m[2]) === 0) continue;
    const path = m[3];
    let text: string;
    try {
      text = decoder.decode(await git(repo, ["cat-file", "blob", m[1]]));
    } catch {
      continue;
    }
    if (text.includes("\0")) continue;
    if (!summarize(path, text).startsWith("**Text**")) continue;
    const base = path.slice(path.lastIndexOf("/") + 1);
    const key = extname(path).toLowerCase() || `(name) ${base}`;
    const kind = kinds.get(key) ?? { files: 0, bytes: 0, repos: new Set(), example: "" };
    kind.files++;
    kind.bytes += Number(m[2]);
    kind.repos.add(name);
    kind.example ||= `${name}:${path}`;
    kinds.set(key, kind);
  }
}

const rows = [...kinds].sort((a, b) =>
  b[1].repos.size - a[1].repos.size || b[1].files - a[1].files
);
for (const [key, k] of rows.slice(0, Number(Deno.env.get("TOP") ?? 60))) {
  console.log(
    `${key}\trepos ${k.repos.size}\tfiles ${k.files}\t${
      Math.round(k.bytes / 1024)
    } KB\t${k.example}`,
  );
}
