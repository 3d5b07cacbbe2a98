// What a build tells its `onProgress`: the scan's start, files and end, each file rendered, then the
// blocks counted as the counts are found (not only once they are placed), never going back.
import assert from "node:assert/strict";
import { build, defaultPlugins, loadConfig, speedLayer } from "../../mod.ts";
import type { BuildProgress } from "../../pipeline/build.ts";
import { tallyWork } from "../../pipeline/_work_count.ts";
import { makeProject } from "../_helpers.ts";

const FILES = 30;

async function progressOf(layered: boolean): Promise<BuildProgress[]> {
  const tree: Record<string, string> = {
    "slop.config.ts": `export default { files: ["src/**"], cache: { enabled: false } };\n`,
  };
  for (let i = 0; i < FILES; i++) tree[`src/m${i}.py`] = `def f${i}(x):\n    return x * ${i}\n`;
  const root = await makeProject(tree);
  const seen: BuildProgress[] = [];
  await build(await loadConfig({ cwd: root }), {
    builtins: defaultPlugins(),
    layer: layered ? speedLayer() : undefined,
    write: false,
    workers: 1,
    onProgress: (p) => seen.push({ ...p }),
  });
  return seen;
}

for (const layered of [false, true]) {
  Deno.test(`a build tells the scan, the files and the blocks as they are counted (${layered ? "speed layer" : "plain stages"})`, async () => {
    const seen = await progressOf(layered);
    const of = (stage: BuildProgress["stage"]) => seen.filter((p) => p.stage === stage);
    // The scan: its start, each file as its scan ends (none cached here), its end once.
    const scan = of("scan");
    assert.deepEqual(scan.map((p) => p.total), scan.map(() => FILES));
    assert.deepEqual([scan[0].done, scan.at(-1)!.done], [0, FILES]);
    assert.equal(scan.filter((p) => p.done === FILES).length, 1, "the end told once");
    assert.ok(scan.every((p, i) => i === 0 || p.done >= scan[i - 1].done), "never back");
    assert.ok(new Set(scan.map((p) => p.done)).size >= FILES / 2, "told as files are scanned");
    assert.equal(of("transform").length, FILES);
    // The files' bytes too (the bar's estimate is by bytes): growing to the sources' total.
    const sizes = Array.from({ length: FILES }, (_, i) => `def f${i}(x):\n    return x * ${i}\n`);
    const bytes = sizes.reduce((n, text) => n + text.length, 0);
    // Told as the files are read (the build's start, then a file at a time), without bytes.
    const reading = scan.filter((p) => p.bytesTotal === undefined);
    assert.deepEqual(reading.map((p) => p.done), Array(FILES + 1).fill(0));
    assert.ok(scan.slice(reading.length).every((p) => p.bytesTotal === bytes));
    assert.equal(scan.at(-1)!.bytesDone, bytes);
    const rendered = of("transform");
    assert.ok(
      rendered.every((p) => p.bytesTotal === bytes),
      `${rendered[0].bytesTotal} of ${bytes}`,
    );
    assert.ok(rendered.every((p, i) => p.bytesDone! > (i ? rendered[i - 1].bytesDone! : 0)));
    assert.equal(rendered.at(-1)!.bytesDone, bytes);
    assert.deepEqual(seen.map((p) => p.stage).filter((s, i, all) => s !== all[i - 1]), [
      "scan",
      "transform",
      "tokens",
    ]);
    const tokens = of("tokens");
    const total = tokens[0].total;
    assert.ok(total >= FILES, `a block a file at least: ${total}`);
    assert.ok(tokens.every((p) => p.total === total));
    // Never back, ends at the total, and moves while the texts are counted.
    assert.ok(tokens.every((p, i) => i === 0 || p.done >= tokens[i - 1].done), "never back");
    assert.equal(tokens.at(-1)!.done, total);
    assert.equal(tokens.filter((p) => p.done === total).length, 1, "the last told once, placed");
    const between = new Set(tokens.map((p) => p.done).filter((d) => d > 0 && d < total));
    assert.ok(
      between.size >= FILES / 2,
      `counted blocks told as they are counted: ${[...between]}`,
    );
  });
}

Deno.test("a budget's steps are told as tokens shed of the tokens over the budget, never going back", async () => {
  const tree: Record<string, string> = {
    "slop.config.ts": `export default { files: ["src/**"], cache: { enabled: false } };\n`,
  };
  for (let i = 0; i < 12; i++) {
    tree[`src/m${i}.py`] = `def f${i}(x):\n` + `    x = x * ${i} + 1\n`.repeat(40) +
      "    return x\n";
  }
  const root = await makeProject(tree);
  const seen: BuildProgress[] = [];
  const result = await build(await loadConfig({ cwd: root, budget: 300 }), {
    builtins: defaultPlugins(),
    write: false,
    workers: 1,
    onProgress: (p) => seen.push({ ...p }),
  });
  const budget = seen.filter((p) => p.stage === "budget");
  assert.deepEqual(seen.map((p) => p.stage).filter((s, i, all) => s !== all[i - 1]), [
    "scan",
    "transform",
    "tokens",
    "budget",
  ]);
  const over = result.manifest.budget!.before - 300;
  assert.ok(budget.every((p) => p.total === over), `the tokens over: ${over}`);
  assert.equal(budget[0].done, 0, "told as the steps start");
  assert.ok(budget.every((p, i) => i === 0 || p.done > budget[i - 1].done), "only forward");
  assert.ok(budget.length > 3, `told step by step: ${budget.length}`);
  assert.equal(budget.at(-1)!.done, over, "fitted: all that was over is shed");

  // Within its budget a build steps nothing down and tells no budget stage.
  const fits: BuildProgress[] = [];
  await build(await loadConfig({ cwd: root, budget: 1_000_000 }), {
    builtins: defaultPlugins(),
    write: false,
    workers: 1,
    onProgress: (p) => fits.push({ ...p }),
  });
  assert.ok(!fits.some((p) => p.stage === "budget"));
});

/**
 * A build of `files` Python files whose `onProgress` throws once `throwWhen` says so (and at each
 * call after): what it was told, and the characters it scanned and hashed.
 */
async function cancelledBuild(
  options: { files: number; layered: boolean; throwWhen: (p: BuildProgress) => boolean },
) {
  const tree: Record<string, string> = {
    "slop.config.ts": `export default { files: ["src/**"], cache: { enabled: false } };\n`,
  };
  const body = "    total = total + x  # a line to scan\n".repeat(200);
  for (let i = 0; i < options.files; i++) tree[`src/m${i}.py`] = `def f${i}(x):\n${body}`;
  const root = await makeProject(tree);
  const config = await loadConfig({ cwd: root });
  const seen: BuildProgress[] = [];
  const stop = new Error("cancelled");
  let rejected: unknown;
  let thrown = false;
  const work = await tallyWork(async () => {
    await build(config, {
      builtins: defaultPlugins(),
      layer: options.layered ? speedLayer() : undefined,
      write: false,
      workers: 1,
      onProgress: (p) => {
        seen.push({ ...p });
        thrown ||= options.throwWhen(p);
        if (thrown) throw stop;
      },
    }).catch((error) => rejected = error);
  });
  const scanned = work.get("characters scanned here") ?? 0;
  return { rejected, stop, seen, scanned, hashed: work.get("bytes hashed") ?? 0, body };
}

for (const layered of [false, true]) {
  const how = layered ? "speed layer" : "plain stages";
  Deno.test(`what onProgress throws while files are scanned stops the scan at the next file (${how})`, async () => {
    const { rejected, stop, seen, scanned, body } = await cancelledBuild({
      files: 40,
      layered,
      throwWhen: (p) => p.stage === "scan" && p.done >= 2,
    });
    assert.equal(rejected, stop);
    // Told once with files done (no more after the throw), and nothing after the scan.
    assert.deepEqual(seen.filter((p) => p.done > 0).map((p) => [p.stage, p.done]), [
      ["scan", 1],
      ["scan", 2],
    ]);
    // Two files scanned when it threw; the file under way ends, no other begins.
    assert.ok(scanned > 0 && scanned <= 3 * (body.length + 20), `${scanned} characters scanned`);
  });

  Deno.test(`what onProgress throws while files are read stops the reads, and no file is scanned (${how})`, async () => {
    // The scan's start is told again as each file is read (the byte total once all are).
    let told = 0;
    const { rejected, stop, seen, scanned, hashed, body } = await cancelledBuild({
      files: 400,
      layered,
      throwWhen: () => ++told === 10,
    });
    assert.equal(rejected, stop);
    assert.ok(seen.every((p) => p.stage === "scan" && p.done === 0 && !p.bytesTotal));
    assert.equal(scanned, 0);
    // Nine files read when it threw; those under way (64 at once) end, no other begins.
    const files = Math.round(hashed / body.length);
    assert.ok(files < 100, `${files} of 400 files read and hashed`);
  });
}
