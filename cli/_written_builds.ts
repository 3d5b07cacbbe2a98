/**
 * The builds written to an output folder, read back for `slop stats`, `report`, `explain` and the
 * MCP server's latest document: the numbered manifests, highest first, each with its document.
 *
 * @module
 */

import { join } from "node:path";
import type { Manifest } from "../pipeline/types.ts";
import { readSettingText } from "../pipeline/helpers.ts";
import { shownPath } from "../pipeline/paths.ts";
import { manifestProblem } from "./_manifest_shape.ts";

/** Where a config writes its builds: the output folder, the namespace and the project root. */
export interface OutputPlace {
  /** The output folder (`output.dir`). */
  dir: string;
  /** The manifests' and documents' name before the number (`output.namespace`). */
  namespace: string;
  /** The root the manifest's `output` is relative to. */
  root: string;
}

/** One written build: its number, its manifest and its document as the reader gave it. */
export interface WrittenBuild<T> {
  /** The output number. */
  number: number;
  /** Its manifest. */
  manifest: Manifest;
  /** The manifest file's text, as written (what a reader of the file gets, byte for byte). */
  manifestText: string;
  /** Its document. */
  document: T;
}

/**
 * The written builds of `place`, highest number first, each document given by `read`; a manifest
 * that does not read whole (a FIFO or device in its place is never opened), or whose document
 * `read` cannot give, is passed over and named to `warn`.
 *
 * @example
 * ```ts
 * import { writtenBuilds } from "./_written_builds.ts";
 * const place = { dir: ".slop/out", namespace: "context", root: Deno.cwd() };
 * for await (const b of writtenBuilds(place, Deno.readTextFile)) console.log(b.number);
 * ```
 */
export async function* writtenBuilds<T>(
  place: OutputPlace,
  read: (path: string) => Promise<T>,
  warn: (message: string) => void = () => {},
): AsyncGenerator<WrittenBuild<T>> {
  const ns = place.namespace.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(`^${ns}_(\\d+)\\.json$`);
  const numbered: Array<[number, string]> = [];
  try {
    for await (const entry of Deno.readDir(place.dir)) {
      const m = pattern.exec(entry.name);
      if (m) numbered.push([Number(m[1]), entry.name]);
    }
  } catch {
    return;
  }
  numbered.sort((a, b) => b[0] - a[0]);
  for (const [number, name] of numbered) {
    const path = join(place.dir, name);
    let manifest: Manifest;
    let manifestText: string;
    try {
      manifestText = await readSettingText(path);
      manifest = JSON.parse(manifestText);
      const problem = manifestProblem(manifest);
      if (problem) throw new Error(problem);
    } catch (error) {
      warn(`Skipped "${shownPath(path)}": not a readable manifest (${messageOf(error)})`);
      continue;
    }
    const documentPath = join(place.root, manifest.output!);
    let document: T;
    try {
      document = await read(documentPath);
    } catch (error) {
      warn(
        `Skipped "${shownPath(path)}": cannot read its document "${shownPath(documentPath)}" (${
          messageOf(error)
        })`,
      );
      continue;
    }
    yield { number, manifest, manifestText, document };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
