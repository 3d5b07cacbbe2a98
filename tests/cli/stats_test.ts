import assert from "node:assert/strict";
import { makeProject, runCliShared } from "../_helpers.ts";
import { buildContext } from "../../mod.ts";
import { countTokens } from "../../pipeline/tokens.ts";
import { join } from "node:path";

const PROJECT = {
  "slop.config.ts": `export default {
  files: ["src/**"],
  history: [{ role: "User", content: "what changed?" }],
};
`,
  "src/big.ts": "export const big = [\n" + "  'a long line of tokens here',\n".repeat(40) + "];\n",
  "src/small.ts": "export const s = 1;\n",
  "src/mid.py": "def mid():\n    return 'mid' * 3\n",
};

Deno.test("slop stats reads the latest manifest and lists tokens per section, top files and the prefix share", async () => {
  const root = await makeProject(PROJECT);
  await buildContext({ cwd: root }); // the state the command reads, built in this process
  const run = await runCliShared(["stats", "--top", "2"], root);
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.split("\n");
  assert.equal(lines[0], "slop stats: .slop/out/context_001.md");
  assert.match(lines[1], /^\s+bytes\s+o200k\s+cl100k$/);
  assert.match(
    run.stdout,
    /\n {2}files \(stable\)\s+\S+ \S+\s+\d+\s+\d+\n {2}history \(volatile\)/,
  );
  assert.match(run.stdout, /stable prefix \(\d+%\)/);
  const top = lines.slice(lines.indexOf("top 2 files by o200k tokens:") + 2);
  assert.deepEqual(top.filter(Boolean).map((l) => l.split(/\s+/)[0]), ["src/big.ts", "src/mid.py"]);
});

Deno.test("slop stats --json counts both tokenizers exactly and builds when there is no output", async () => {
  const root = await makeProject(PROJECT);
  const run = await runCliShared(["stats", "--json"], root);
  assert.equal(run.code, 0, run.stderr);
  const stats = JSON.parse(run.stdout);
  assert.equal(stats.output, undefined, "nothing was written");
  const block = "### src/small.ts\n\n```ts\nexport const s = 1;\n```\n\n";
  const small = stats.files.find((f: { path: string }) => f.path === "src/small.ts");
  assert.deepEqual(small.tokens, {
    o200k: await countTokens(block, "o200k"),
    cl100k: await countTokens(block, "cl100k"),
  });
  const sum = (t: "o200k" | "cl100k") =>
    stats.sections.reduce((n: number, s: { tokens: Record<string, number> }) => n + s.tokens[t], 0);
  assert.equal(stats.total.cl100k, sum("cl100k"));
  assert.equal(stats.total.o200k, sum("o200k"));
  assert.ok(stats.prefix.share > 0 && stats.prefix.share < 1);
  assert.equal(stats.files[0].path, "src/big.ts");
});

const ONE_FILE = {
  "slop.config.ts": `export default { files: ["src/**"] };\n`,
  "src/a.ts": "export const a = 1;\n",
};

Deno.test("slop stats and report skip a broken latest manifest with a warning and read the one before", async () => {
  const root = await makeProject(ONE_FILE);
  await buildContext({ cwd: root }); // the state the command reads, built in this process
  await Deno.writeTextFile(join(root, "src/a.ts"), "export const a = 2;\n");
  await buildContext({ cwd: root }); // the state the command reads, built in this process
  // A truncated manifest #3 and a manifest #2 whose document is gone.
  await Deno.writeTextFile(join(root, ".slop/out/context_003.json"), "{");
  await Deno.remove(join(root, ".slop/out/context_002.md"));

  const stats = await runCliShared(["stats"], root);
  assert.equal(stats.code, 0, stats.stderr);
  assert.equal(stats.stdout.split("\n")[0], "slop stats: .slop/out/context_001.md");
  assert.match(
    stats.stderr,
    /^warning: Skipped ".slop\/out\/context_003.json": not a readable manifest \(.+\)\n/m,
  );
  assert.match(
    stats.stderr,
    /^warning: Skipped ".slop\/out\/context_002.json": cannot read its document ".slop\/out\/context_002.md" \(.+\)\n/m,
  );

  const report = await runCliShared(["report", "--stdout"], root);
  assert.equal(report.code, 0, report.stderr);
  assert.match(report.stderr, /Skipped ".slop\/out\/context_003.json"/);
  assert.match(report.stdout, /export const a = 1|<html/);
});
