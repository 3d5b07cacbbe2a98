import assert from "node:assert/strict";
import { budgetLines } from "../../cli/_budget.ts";
import { modelTokenCount } from "../../cli/_cache_line.ts";
import type { ModelInfo } from "../../pipeline/types.ts";
import { type CliRun, gitInit, makeProject, runCliShared } from "../_helpers.ts";
import { modelWindows, overEveryWindow } from "../../plugins/providers/windows.ts";
import { join } from "node:path";
import { build, defaultPlugins, loadConfig, type SlopConfig } from "../../mod.ts";
import { type BuildFlags, runBuild, summaryText } from "../../cli/build.ts";
import { formatDollars } from "../../pipeline/figures.ts";

Deno.test("slop build's summary says 1 error, not 1 errors", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default { files: ["a.txt", "gone.txt"] };\n`,
    "a.txt": "a\n",
  });
  const run = await runCliShared(["build"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^files: 1 rendered, 0 skipped, 1 error$/m);
});

Deno.test("slop build's summary lists at most 20 skipped files, then says how many more", async () => {
  const tree: Record<string, string> = {};
  for (let i = 0; i < 25; i++) tree[`big/${String(i).padStart(2, "0")}.txt`] = "x".repeat(20 + i);
  const root = await makeProject(tree);
  const result = await buildOf(root, { maxFileSize: 10 });
  // 25 reasons of their own (no build gives so many kinds at once; the list is the summary's).
  result.files.forEach((f, i) => f.reason = `reason ${"abcdefghijklmnopqrstuvwxyz"[i]}`);
  const text = summaryText(result);
  const listed = text.split("\n").filter((l) => l.startsWith("  skipped: "));
  assert.equal(listed.length, 20);
  assert.equal(listed[0], "  skipped: big/00.txt (reason a)");
  assert.match(text, /\n {2}\.\.\. and 5 more skipped or failed files \(see the manifest\)(\n|$)/);
});

Deno.test("slop build's summary gives files over the size limit one line, with the range of their sizes", async () => {
  // Each file's reason names its own size: the summary listed 25 lines that said the same.
  const tree: Record<string, string> = {};
  for (let i = 0; i < 25; i++) tree[`big/${String(i).padStart(2, "0")}.txt`] = "x".repeat(2000 + i);
  tree["small/a.txt"] = "x".repeat(1500);
  const root = await makeProject(tree);
  const text = summaryText(await buildOf(root, { maxFileSize: 1000 }));
  assert.deepEqual(text.split("\n").filter((l) => l.startsWith("  skipped: ")), [
    "  skipped: big/00.txt and 25 more files (file is 1,500 to 2,024 bytes, over the limit of 1,000 bytes)",
  ]);
});

Deno.test("slop build's summary gives files skipped for the same reason one line, with a count", async () => {
  const tree: Record<string, string | Uint8Array> = { "a.txt": "a\n", "uv.lock": "x\n" };
  for (let i = 0; i < 25; i++) {
    tree[`img/${String(i).padStart(2, "0")}.png`] = new Uint8Array([0, 1, i]);
  }
  for (let i = 0; i < 3; i++) tree[`fonts/${i}.woff`] = new Uint8Array([0, 2, i]);
  const root = await makeProject(tree);
  const text = summaryText(await buildOf(root, { files: ["**", "gone.txt"] }));
  const listed = text.split("\n").filter((l) => /^ {2}(skipped|error): /.test(l));
  assert.deepEqual(listed, [
    "  skipped: fonts/0.woff and 27 more files (binary file)",
    "  error: gone.txt (file not found)",
    '  skipped: uv.lock (lockfile, skipped by default: name it in "files" to include it)',
  ]);
  assert.doesNotMatch(text, /more skipped or failed files/);
});

/** A build in this process (no CLI start), not written. */
async function buildOf(root: string, inline: SlopConfig) {
  const config = await loadConfig({ cwd: root, inline });
  return await build(config, { builtins: defaultPlugins(), write: false });
}

Deno.test("slop build's summary does not list a budget-dropped file twice", async () => {
  const tree: Record<string, string> = {};
  for (let i = 0; i < 4; i++) tree[`doc${i}.txt`] = `${"words and more words ".repeat(200)}${i}\n`;
  const root = await makeProject(tree);
  const run = await runCliShared(["build", "--budget", "60"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /stepped down: doc\d\.txt full -> .*listed/);
  assert.doesNotMatch(run.stdout, /skipped: doc\d\.txt \(stepped down to fit the token budget\)/);
  // Again, from the cache: a file stepped down to "listed" is not one of the rendered files hit.
  await runCliShared(["build", "--budget", "100"], root);
  const again = await runCliShared(["build", "--budget", "100"], root);
  const rendered = Number(/^files: (\d+) rendered/m.exec(again.stdout)?.[1]);
  assert.ok(rendered > 0 && rendered < 4, again.stdout);
  assert.match(again.stdout, /-> listed/);
  assert.match(
    again.stdout,
    new RegExp(`^cache: ${rendered} of ${rendered} rendered files from`, "m"),
  );
});

Deno.test("budgetLines() lists at most 20 stepped-down files, then says how many more", () => {
  const steppedDown = Array.from({ length: 23 }, (_, i) => ({
    path: `f${String(i).padStart(2, "0")}.txt`,
    from: "full",
    to: "summary",
  }));
  const lines = budgetLines({ tokens: 10, before: 99, after: 10, met: true, steppedDown });
  assert.equal(lines.length, 22);
  assert.equal(lines[0], "budget: 10 of 10 o200k tokens (99 before stepping 23 files down):");
  assert.equal(lines[1], "  stepped down: f00.txt full -> summary");
  const unmet = { tokens: 10, before: 99, after: 12, met: false, steppedDown: [] };
  assert.deepEqual(budgetLines(unmet, { tokenizer: "cl100k" }), [
    "budget: NOT MET, 12 cl100k tokens for a budget of 10, nothing stepped down",
  ]);
  assert.equal(lines[21], "  ... and 3 more stepped down (see the manifest's budget)");
});

Deno.test("budgetLines() groups its counts by thousands, as the stable prefix line does", () => {
  const steppedDown = [{ path: "a.ts", from: "full", to: "skeleton" }];
  const met = { tokens: 30000, before: 306984, after: 29989, met: true, steppedDown };
  assert.equal(
    budgetLines(met)[0],
    "budget: 29,989 of 30,000 o200k tokens (306,984 before stepping 1 file down):",
  );
  const unmet = { tokens: 1000, before: 5000, after: 4200, met: false, steppedDown: [] };
  assert.deepEqual(budgetLines(unmet), [
    "budget: NOT MET, 4,200 o200k tokens for a budget of 1,000, nothing stepped down",
  ]);
});

Deno.test("slop build's summary says when the document is larger than every known model's window", async () => {
  // 4.4 MB of one-letter words: about 2.2 million o200k tokens and 4.4 million characters, over
  // the largest windows (gpt-4.1: 1,047,576 tokens; Gemini: 1,048,576 at 4 characters a token).
  // Markdown: plain text that large would be summarized as data.
  const root = await makeProject({ "words.md": "a ".repeat(2_200_000) });
  const run = await runCliShared(["build"], root);
  assert.equal(run.code, 0, run.stderr);
  const line = run.stdout.split("\n").find((l) => l.startsWith("too large: "));
  assert.ok(line, run.stdout);
  assert.match(line, /larger than the context window of every known model \(the closest: /);
  // It suggests the budget the configured model's context-window warning suggests, not another;
  // that warning is in the manifest, not said twice in the summary.
  const suggested = /--budget (\d+)/.exec(line)?.[1];
  const manifestPath = / \(manifest (.+)\)$/m.exec(run.stdout)?.[1];
  const manifest = JSON.parse(await Deno.readTextFile(join(root, manifestPath!)));
  const warning = manifest.warnings.find((w: string) => w.includes("over its context window"));
  assert.ok(suggested && warning, JSON.stringify(manifest.warnings));
  assert.equal(/--budget (\d+)/.exec(warning)?.[1], suggested);
  assert.doesNotMatch(run.stdout, /over its context window/);
  assert.match(line, /"defaultView": "skeleton"/);
  assert.match(line, /--preset NAME, --persona NAME/);
  // Within the budget the document fits: no such line.
  const fitted = await runCliShared(["build", "--budget", suggested], root);
  assert.equal(fitted.code, 0, fitted.stderr);
  assert.doesNotMatch(fitted.stdout, /too large: /);
});

Deno.test("overEveryWindow() counts each model in its own tokens and names the closest fit", () => {
  // Just over gpt-4.1's 1,047,576 tokens, but 4.1 MB of characters fit Gemini's window.
  assert.equal(overEveryWindow({ tokens: 1_047_577, bytes: 4_100_000 }), undefined);
  // Over Gemini's characters too.
  const over = overEveryWindow({ tokens: 1_047_577, bytes: 4_200_000 });
  assert.match(over ?? "", /the closest: openai "gpt-4\.1", 1,047,576 tokens, about 1,047,577 of/);
  // Many tokens in few characters: Gemini (characters / 4) is the closest.
  assert.match(
    overEveryWindow({ tokens: 3_000_000, bytes: 4_400_000 }) ?? "",
    /the closest: gemini "gemini-2\.5-flash", 1,048,576 tokens, about 1,100,000 of/,
  );
  assert.match(over ?? "", /--budget 200000,/);
  assert.match(
    overEveryWindow({ tokens: 3e6, bytes: 12e6 }, { budget: 149_000 }) ?? "",
    /--budget 149000,/,
  );
  // The document's count names its tokenizer; the models' counts are theirs.
  assert.match(
    overEveryWindow({ tokens: 3e6, bytes: 12e6 }) ?? "",
    /^the document \(3,000,000 o200k tokens\)/,
  );
  assert.match(
    overEveryWindow({ tokens: 3e6, bytes: 12e6 }, { tokenizer: "cl100k" }) ?? "",
    /^the document \(3,000,000 cl100k tokens\)/,
  );
  const best = modelWindows({ tokens: 100, bytes: 400 })[0];
  assert.equal(best.tokens, 100);
});

// The build summary, its warnings and the stats table show paths one per line, with control and
// direction-changing characters written as escapes: a file name cannot add lines or reorder the
// terminal's text.
Deno.test("the build summary, warnings and stats write odd file names with escapes, one line each", async () => {
  const root = await makeProject({
    "\u202eevil.md": "rtl\n",
    "cr\rname.md": "cr\n",
    "slop.config.ts": `export default { files: ["**", "gone\\nwarning.md"] };\n`,
  });
  await Deno.symlink("nowhere", join(root, "bad\nerror: forged.md"));
  const build = await runCliShared(["build"], root);
  assert.equal(build.code, 0, build.stderr);
  const out = build.stdout + build.stderr;
  assert.ok(!out.includes("\r") && !out.includes("\u202e"), JSON.stringify(out));
  const lines = out.split("\n");
  assert.ok(lines.includes("  error: bad\\nerror: forged.md (broken symbolic link)"), out);
  assert.ok(!lines.some((l) => l.startsWith("error: forged")), out);
  assert.ok(lines.some((l) => l.startsWith("warning: ") && l.includes("gone\\nwarning.md")), out);

  const stats = await runCliShared(["stats"], root);
  assert.equal(stats.code, 0, stats.stderr);
  assert.ok(!stats.stdout.includes("\r") && !stats.stdout.includes("\u202e"));
  assert.match(stats.stdout, /^\\u\{202e\}evil\.md +full/m);
  assert.match(stats.stdout, /^cr\\rname\.md +full/m);
});

Deno.test("a build that redacts many secrets prints the first 20 and a count, the manifest lists all", async () => {
  const files: Record<string, string> = { "slop.config.ts": "export default {};\n" };
  for (let i = 0; i < 26; i++) {
    // A made-up password of a mixed shape under a password name, one file each.
    files[`conf/app_${String(i).padStart(2, "0")}.py`] = `password = "Zq${i}wPl3xK7mN2vBr8"\n`;
  }
  files["conf/keep.txt"] = "nothing secret\n";
  const root = await makeProject(files);
  const run = await runCliShared(["build", "--json"], root);
  assert.equal(run.code, 0, run.stderr);
  const printed = run.stderr.split("\n").filter((l) => l.startsWith("warning: Redacted a secret"));
  assert.equal(printed.length, 20, run.stderr);
  assert.match(
    run.stderr,
    /^warning: \.\.\. and 6 more secrets redacted \(the manifest's warnings list them\)$/m,
  );
  const manifest = JSON.parse(run.stdout);
  const listed = manifest.warnings.filter((w: string) => w.startsWith("Redacted a secret"));
  assert.equal(listed.length, 26);
});

Deno.test("slop watch prints the first 20 redactions of a build and a count of the rest", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 23; i++) {
    files[`conf/app_${String(i).padStart(2, "0")}.py`] = `password = "Zq${i}wPl3xK7mN2vBr8"\n`;
  }
  const root = await makeProject(files);
  const run = await runCliShared(["watch", "--max-builds", "0"], root); // the first build only
  assert.equal(run.code, 0, run.stderr);
  const printed = run.stderr.split("\n").filter((l) => l.startsWith("warning: Redacted a secret"));
  assert.equal(printed.length, 20, run.stderr);
  assert.match(run.stderr, /^warning: \.\.\. and 3 more secrets redacted/m);
});

Deno.test("slop stats --build and slop check count the build's redactions in one line", async () => {
  const files: Record<string, string> = { "keep.md": "# Keep\n" };
  for (let i = 0; i < 3; i++) files[`app_${i}.py`] = `password = "Zq${i}wPl3xK7mN2vBr8"\n`;
  const root = await makeProject(files);
  const [stats, check] = await Promise.all([
    runCliShared(["stats", "--build", "--top", "1"], root),
    runCliShared(["check", "--update"], root),
  ]);
  const line = "warning: 3 secrets redacted (`slop build` names each one)\n";
  const runs: [CliRun, RegExp][] = [[stats, /^slop stats: a fresh build/], [
    check,
    /^slop check: pinned/,
  ]];
  for (const [run, own] of runs) {
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, own);
    assert.equal(run.stderr, line, "one line, not the build's warnings");
  }
});

/** `slop build` in this process with `flags` in `root`; what it printed to stdout. */
async function summaryOf(root: string, flags: BuildFlags): Promise<string> {
  let out = "";
  const terminal = {
    stdout: (data: string | Uint8Array) => {
      out += typeof data === "string" ? data : new TextDecoder().decode(data);
      return Promise.resolve();
    },
    stderr: (text: string) => void (out += text),
    stderrIsTerminal: false,
  };
  const code = await runBuild([], { cwd: root, quiet: false, ...flags }, { terminal });
  assert.equal(code, 0, out);
  return out;
}

Deno.test("slop build --since says which files changed since the ref are in focus, or that none did", async () => {
  const root = await makeProject({ "a.py": "a = 1\n", "b.py": "b = 1\n", "c.py": "c = 1\n" });
  await gitInit(root);
  assert.match(
    await summaryOf(root, { since: "HEAD" }),
    /^since HEAD: no file changed, none in focus$/m,
  );
  await Deno.writeTextFile(join(root, "b.py"), "b = 2\n");
  await Deno.writeTextFile(join(root, "d.py"), "d = 1\n");
  assert.match(
    await summaryOf(root, { since: "HEAD" }),
    /^since HEAD: 2 files changed, in focus: b\.py, d\.py$/m,
  );
  // Without --since, no such line.
  assert.doesNotMatch(await summaryOf(root, {}), /^since /m);
});

Deno.test("slop build's summary names what each token count counts", async () => {
  const root = await makeProject({ "a.md": "The stable prefix is counted twice.\n".repeat(40) });
  // The prefix in slop's tokenizer; the cache line in the provider's tokens, estimated from o200k.
  const o200k = summaryText(await buildOf(root, {}));
  const prefix = Number(
    /^stable prefix: \S+ \S+ \(([\d,]+) o200k tokens, /m.exec(o200k)?.[1]
      .replace(/,/g, ""),
  );
  assert.ok(prefix > 0, o200k);
  const claude =
    /^cache \(anthropic [^)]+\): prefix ~([\d,]+) tokens \(o200k × 1\.2, estimated\), /m
      .exec(o200k);
  assert.ok(claude, o200k);
  assert.ok(Number(claude[1].replace(/,/g, "")) >= prefix * 1.2);
  // cl100k counts say so; an OpenAI model's counts are exact, in its own encoding.
  const config = await loadConfig({
    cwd: root,
    inline: { budget: { tokenizer: "cl100k" }, provider: { name: "openai", model: "gpt-4o" } },
  });
  const result = await build(config, { builtins: defaultPlugins(), write: false });
  const cl100k = summaryText(result, { tokenizer: "cl100k" });
  assert.match(cl100k, /^stable prefix: \S+ \S+ \([\d,]+ cl100k tokens, /m);
  assert.match(cl100k, /^cache \(openai gpt-4o, ttl 5m\): prefix [\d,]+ o200k tokens, /m);
});

Deno.test("modelTokenCount() says how a model's tokens were counted", () => {
  const info = (tokenizer: ModelInfo["tokenizer"], tokenFactor?: number): ModelInfo => ({
    model: "m",
    minCacheTokens: 1024,
    ttls: ["5m"],
    breakpoints: false,
    tokenizer,
    ...(tokenFactor ? { tokenFactor } : {}),
    prices: { input: 1, output: 1, cacheRead: 0.1 },
  });
  assert.equal(modelTokenCount(1234, info("o200k")), "1,234 o200k tokens");
  assert.equal(modelTokenCount(1234, info("cl100k")), "1,234 cl100k tokens");
  assert.equal(
    modelTokenCount(1234, info("o200k-estimate", 1.2)),
    "~1,234 tokens (o200k × 1.2, estimated)",
  );
  assert.equal(
    modelTokenCount(1234, info("chars-estimate", 0.25)),
    "~1,234 tokens (characters × 0.25, estimated)",
  );
});

Deno.test("formatDollars() says a small cost in millionths, a cost under a millionth as such, nil as $0", () => {
  assert.equal(formatDollars(0), "$0");
  assert.equal(formatDollars(0.00000025), "<$0.000001");
  assert.equal(formatDollars(0.0000072), "$0.000007");
  assert.equal(formatDollars(0.005576), "$0.005576");
  assert.equal(formatDollars(0.0123456), "$0.0123");
  assert.equal(formatDollars(2.5), "$2.5000");
  assert.equal(formatDollars(-0.0000072), "-$0.000007");
});

Deno.test("a task build's summary counts the files the budget listed apart and names the task's files", async () => {
  // It said "files: 2 rendered, 10 skipped" with one skipped line, and nothing of the task.
  const tree: Record<string, string> = { "logo.png": "\x89PNG\r\n\x1a\n\0\0" };
  for (let i = 0; i < 10; i++) {
    tree[`src/mod_${i}.py`] = `def handler_${i}(request):\n    return ${
      "request.value + ".repeat(80)
    }1\n`;
  }
  tree["src/retry.py"] = "def retry_upload(timeout):\n    return timeout * 2\n";
  const root = await makeProject(tree);
  const config = await loadConfig({
    cwd: root,
    // mapFull 0: the map keeps no file in full, so the small task file is the task section's.
    inline: { budget: { tokens: 400, mapFull: 0 }, task: "retry the upload on timeout" },
  });
  const result = await build(config, { builtins: defaultPlugins(), write: false });
  const text = summaryText(result);
  // A file the task section shows is not "listed" (the map may list it, or show it lighter).
  const inTask = new Set(
    result.manifest.task!.files.filter((f) => f.where === "task").map((f) => f.path),
  );
  const listed = result.budget!.steppedDown
    .filter((s) => s.to === "listed" && !inTask.has(s.path)).length;
  const rendered = result.files.filter((f) => f.status === "rendered").length;
  assert.ok(listed > 0 && inTask.size > 0, text);
  assert.match(
    text,
    new RegExp(
      `^files: ${rendered} rendered, ${listed} listed to fit the budget, 1 skipped, 0 errors$`,
      "m",
    ),
  );
  assert.equal(result.manifest.task!.files[0].path, "src/retry.py");
  assert.match(
    text,
    new RegExp(`^task: ${inTask.size} files? in the task section: src/retry\\.py`, "m"),
  );
});

Deno.test("a task build's files line adds up to every file, a listed one the task section shows among the rendered, and the cache line counts the same rendered files", async () => {
  // A file the map listed and the task section shows was counted nowhere (10 of 11 files).
  const tree: Record<string, string> = {};
  for (let i = 0; i < 6; i++) {
    tree[`src/mod_${i}.py`] = `def handler_${i}(request):\n    return ${
      "request.value + ".repeat(40)
    }1\n`;
  }
  tree["src/retry.py"] = Array.from(
    { length: 8 },
    (_, i) =>
      `def retry_upload_${i}(timeout):\n    """Retry the upload on timeout."""\n    return timeout * ${i}\n`,
  ).join("\n");
  const root = await makeProject(tree);
  let seen = 0;
  // Budgets one after another in one state dir: each build takes the last one's steps first (at
  // 600 the map keeps src/retry.py listed and the task section shows it in full).
  for (const tokens of [100, 150, 200, 300, 400, 600]) {
    const config = await loadConfig({
      cwd: root,
      inline: { budget: { tokens, mapFull: 0 }, task: "retry the upload on timeout" },
    });
    await build(config, { builtins: defaultPlugins(), write: false });
    // Built again, its renders come from the cache: the cache line counts the same files.
    const result = await build(config, { builtins: defaultPlugins(), write: false });
    const text = summaryText(result);
    const line = text.match(/^files: (.*)$/m)![1];
    const sum = [...line.matchAll(/(\d+) (?:rendered|listed|skipped|error)/g)]
      .reduce((n, m) => n + Number(m[1]), 0);
    assert.equal(sum, result.files.length, text);
    const rendered = line.match(/^(\d+) rendered/)![1];
    assert.equal(text.match(/^cache: \d+ of (\d+) rendered/m)?.[1], rendered, text);
    const retry = result.files.find((f) => f.path === "src/retry.py")!;
    const shown = result.manifest.task!.files.find((f) => f.path === "src/retry.py");
    if (retry.status === "skipped" && shown?.where === "task") seen++;
  }
  assert.ok(seen > 0, "a budget that lists the task file in the map and shows it in the section");
});
