/**
 * The heap bytes each lazy text's backing holds, in a process of its own
 * (`--v8-flags=--expose-gc`): `Deno.args[0]` texts kept in a pack
 * (`TextSpill.keepAt`, as a warm build keeps its cached renders) and as many
 * written to a spill file (`TextSpill.spill`), each kept alive alone, counted
 * by the heap's growth after a full collection. Prints one JSON line:
 * `{ packed, spilled }`, in bytes a text. `records_held_test.ts` starts it.
 *
 * @module
 */

import { openSpill } from "../../accel/text_spill.ts";
import { textBacking } from "../../pipeline/lazy_text.ts";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("Run with --v8-flags=--expose-gc");
const count = Number(Deno.args[0]);
const dir = await Deno.makeTempDir({ prefix: "slop_backings_" });
const pack = await Deno.open(`${dir}/pack`, { read: true, write: true, create: true });
const spill = openSpill({ after: 0, dir });
// ASCII bytes over the spill's smallest text: kept as they are, never decoded.
const bytes = new TextEncoder().encode("x = 1\n".repeat(200));
// One name for every record (a build's are its records' sha256s, held by the cache anyway).
const name = "0".repeat(64);

/**
 * Heap bytes a `make()` result holds, kept `count` times over: measured from the second round on,
 * so that what the spill keeps whatever the count (its last texts read or written) is there
 * before and after; the middle of three rounds. Whatever else the heap gains meanwhile (code
 * compiled as the loop warms, on a busy machine later) adds to a round's figure, and what it
 * frees meanwhile takes from it: in one suite run under load, a round lost more than it kept
 * (-88 bytes a text), which the least of three then reported.
 */
function perItem(make: (i: number) => unknown): number {
  const rounds: number[] = [];
  for (const round of [0, 1, 2, 3]) {
    let held: unknown[] = new Array<unknown>(count).fill(undefined);
    gc!();
    const before = Deno.memoryUsage().heapUsed;
    for (let i = 0; i < count; i++) held[i] = make(round * count + i);
    gc!();
    const bytes = (Deno.memoryUsage().heapUsed - before) / held.length;
    if (round > 0) rounds.push(bytes);
    held = [];
  }
  return rounds.sort((a, b) => a - b)[1];
}

const packed = perItem((i) =>
  spill.keepAt({ size: bytes.length, bytes: () => bytes }, {
    offset: i * bytes.length,
    sha256: name,
    borrow: () => pack,
  })
);
const spilled = perItem((i) => {
  const file = { text: `${i}\n${"y = 2\n".repeat(200)}` };
  spill.spill(file);
  return textBacking(file);
});
spill.close();
pack.close();
await Deno.remove(dir, { recursive: true });
console.log(JSON.stringify({ packed, spilled }));
