import { rankFiles } from "../../pipeline/rank.ts";
import { definedNames } from "../../plugins/view_modes/code_views.ts";
import { tallyWork } from "../../pipeline/helpers.ts";
import { SHAPES } from "../../bench/shapes.ts";
import { assertLinear, SIZES } from "./_growth.ts";

const TASK = "Fix the getAdapter timeout in HTTPAdapter.send and the log parser (x, id, name)";

async function rankWork(files: { path: string; text: string }[]): Promise<number> {
  const ranked = () => rankFiles(files, TASK, { definitions: definedNames });
  return (await tallyWork(ranked)).get("rank") ?? 0;
}

Deno.test("ranking's work grows linearly with one file's size, whatever its shape", async () => {
  for (const shape of SHAPES) {
    const work: number[] = [];
    for (const size of SIZES) {
      work.push(await rankWork([{ path: shape.file, text: shape.make(size) }]));
    }
    assertLinear(shape.name, work);
  }
});

Deno.test("ranking's work grows linearly with the number of files", async () => {
  const work: number[] = [];
  for (const size of SIZES) {
    const count = size / 1024;
    const files = Array.from({ length: count }, (_, i) => ({
      path: `src/mod_${i}/file_${i}.py`,
      text: `def get_adapter_${i}(x):\n    return send(x, timeout=${i})\n`.repeat(16),
    }));
    work.push(await rankWork(files));
  }
  assertLinear("many files", work);
});
