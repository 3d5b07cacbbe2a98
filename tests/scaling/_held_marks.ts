/**
 * Run `_held.ts` on a project in a process of its own and give what the build
 * held at each mark, less what it held at the first (before any file was read).
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";

/** The heap held at one mark of a build, in bytes. */
export interface Mark {
  stage: string;
  bytes: number;
  /** Held outside the heap (array buffers: a file's raw bytes), in bytes. */
  external: number;
  /** Garbage in the old generation at the mark, freed by its collection, in bytes. */
  loose: number;
}

/** Options of {@linkcode heldMarks}. */
export interface HeldOptions {
  /** Keep V8 from flushing bytecode, so repeated runs differ by bytes, not kilobytes. @default {false} */
  keepBytecode?: boolean;
  /** The build's state folder (cache, stat index, outputs). @default {join(root, ".slop")} */
  stateDir?: string;
}

/**
 * The heap a build of `root` (state in `root/.slop`, or `options.stateDir`) held at each stage's end, less the first mark.
 *
 * @example
 * ```ts
 * import { heldMarks } from "./_held_marks.ts";
 * // const marks = await heldMarks(root, "layer"); // [{ stage: "start", bytes: 0 }, ...]
 * ```
 */
export async function heldMarks(
  root: string,
  how: "plain" | "layer" | "spill",
  options: HeldOptions = {},
): Promise<Mark[]> {
  const flags = "--expose-gc,--max-semi-space-size=4,--no-turbofan" +
    (options.keepBytecode ? ",--no-flush-bytecode" : "");
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      `--v8-flags=${flags}`,
      new URL("./_held.ts", import.meta.url).pathname,
      root,
      options.stateDir ?? join(root, ".slop"),
      how,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  const marks: Mark[] = JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").pop()!);
  return marks.map((m) => ({
    stage: m.stage,
    bytes: m.bytes - marks[0].bytes,
    external: m.external - marks[0].external,
    loose: m.loose,
  }));
}
