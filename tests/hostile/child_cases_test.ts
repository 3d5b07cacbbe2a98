// The fuzzers' runner of cases in children (bench/_child_cases.ts): a child that ends between two
// cases (after one's `finished` line, before the next's `started`) lost the next case, which is
// reported, and the run goes on after it.
import assert from "node:assert/strict";
import { runCases } from "../../bench/_child_cases.ts";
import { toFileUrl } from "../../pipeline/paths.ts";
import { tempDir } from "../_helpers.ts";

/**
 * A fuzzer's child: cases `--start` to 4, dying before case `dies` starts (when it runs it), or
 * after the last case when `dies` is 5.
 */
const CHILD = `
const start = Number(Deno.args[Deno.args.indexOf("--start") + 1]);
const dies = Number(Deno.args[0]);
for (let i = start; i < 5; i++) {
  if (i === dies && start < dies) Deno.exit(3);
  console.log(JSON.stringify({ started: i }));
  console.log(JSON.stringify({ finished: i }));
}
if (dies === 5) Deno.exit(3);
`;

async function run(dies: number) {
  const dir = await tempDir({ prefix: "slop_child_cases_" });
  const script = `${dir}/child.ts`;
  await Deno.writeTextFile(script, CHILD);
  const finished: number[] = [];
  const lost: number[] = [];
  try {
    await runCases(toFileUrl(script).href, {
      args: [String(dies)],
      timeout: 60,
      start: 0,
      rounds: 5,
    }, {
      message(line) {
        if (typeof line.started === "number") return { started: line.started };
        if (typeof line.finished === "number") {
          finished.push(line.finished);
          return { finished: line.finished };
        }
      },
      lost(i, why) {
        assert.equal(why.hung, false);
        lost.push(i);
      },
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  return { finished, lost };
}

Deno.test("a child that dies between two cases lost the next one: it is reported, the run goes on after it", async () => {
  assert.deepEqual(await run(2), { finished: [0, 1, 3, 4], lost: [2] });
  // A run whose child ends well reports nothing.
  assert.deepEqual(await run(99), { finished: [0, 1, 2, 3, 4], lost: [] });
});

Deno.test("a child that dies after its last case is reported against that case", async () => {
  assert.deepEqual(await run(5), { finished: [0, 1, 2, 3, 4], lost: [4] });
});
