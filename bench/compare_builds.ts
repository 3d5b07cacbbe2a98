/**
 * Why two builds' documents differ: given the two manifests (`out/context_NNN.json`, or the
 * output folders, whose newest manifest is taken), it prints whether the documents are the same
 * bytes, then the input files one build had and the other did not or had with other content (the
 * manifest's `files[].sha256` is the sha256 of the file as read), and the first block whose bytes
 * differ. Same inputs with other bytes is a determinism bug; other inputs is not. The
 * manifest's `output` (the document's path, which names the state dir) is not compared.
 *
 * ```sh
 * deno run -A bench/compare_builds.ts /tmp/a/state/out /tmp/b/state/out
 * ```
 *
 * @module
 */

import { join } from "node:path";

interface ManifestFile {
  path: string;
  sha256: string;
  view: string;
  status: string;
}

interface ManifestBlock {
  id: string;
  sha256: string;
  length: number;
}

interface Manifest {
  files: ManifestFile[];
  blocks: ManifestBlock[];
  total: { sha256: string; bytes: number };
  warnings?: string[];
}

/** A manifest path, or the newest `*.json` manifest in an output folder. */
function manifestPath(given: string): string {
  if (!Deno.statSync(given).isDirectory) return given;
  const names = [...Deno.readDirSync(given)]
    .filter((e) => e.isFile && /_\d{3,}\.json$/.test(e.name))
    .map((e) => e.name)
    .sort((a, b) => Number(a.match(/_(\d+)\.json$/)![1]) - Number(b.match(/_(\d+)\.json$/)![1]));
  if (!names.length) throw new Error(`[bench] No manifest in "${given}"`);
  return join(given, names[names.length - 1]);
}

/**
 * The differences between two manifests, as lines to print.
 *
 * @example
 * ```ts
 * import { compareManifests } from "./compare_builds.ts";
 * const m = { files: [], blocks: [], total: { sha256: "ab", bytes: 0 } };
 * compareManifests(m, m); // ["same document: sha256 ab, 0 bytes"]
 * ```
 */
export function compareManifests(a: Manifest, b: Manifest): string[] {
  if (a.total.sha256 === b.total.sha256) {
    return [`same document: sha256 ${a.total.sha256}, ${a.total.bytes} bytes`];
  }
  const out = [
    `documents differ: ${a.total.sha256.slice(0, 16)} (${a.total.bytes} bytes) and ` +
    `${b.total.sha256.slice(0, 16)} (${b.total.bytes} bytes)`,
  ];
  const before = new Map(a.files.map((f) => [f.path, f]));
  const after = new Map(b.files.map((f) => [f.path, f]));
  const inputs: string[] = [];
  for (const [path, f] of before) {
    const g = after.get(path);
    if (!g) inputs.push(`  only in the first: ${path}`);
    else if (g.sha256 !== f.sha256) inputs.push(`  other content: ${path}`);
    else if (g.view !== f.view || g.status !== f.status) {
      inputs.push(
        `  same content, shown otherwise: ${path} (${f.view} ${f.status}, ${g.view} ${g.status})`,
      );
    }
  }
  for (const path of after.keys()) {
    if (!before.has(path)) inputs.push(`  only in the second: ${path}`);
  }
  out.push(
    inputs.length ? `inputs or views differ (${inputs.length}):` : "same inputs, same views",
    ...inputs.slice(0, 20),
  );
  const other = new Map(b.blocks.map((bl) => [bl.id, bl]));
  const changed = a.blocks.find((bl) => other.get(bl.id)?.sha256 !== bl.sha256);
  const moved = a.blocks.findIndex((bl, i) => b.blocks[i]?.id !== bl.id);
  if (changed) out.push(`first block with other bytes: ${changed.id}`);
  if (moved >= 0) out.push(`first block at another place: ${a.blocks[moved].id} (block ${moved})`);
  return out;
}

if (import.meta.main) {
  if (Deno.args.length !== 2) {
    console.error(
      "usage: deno run -A bench/compare_builds.ts MANIFEST_OR_OUT_DIR MANIFEST_OR_OUT_DIR",
    );
    Deno.exit(2);
  }
  const [a, b] = Deno.args.map((p) =>
    JSON.parse(Deno.readTextFileSync(manifestPath(p))) as Manifest
  );
  for (const line of compareManifests(a, b)) console.log(line);
}
