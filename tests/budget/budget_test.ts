import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext, defaultPlugins } from "../../mod.ts";
import { git, gitInit, makeProject, runCliShared } from "../_helpers.ts";
import { formatCount } from "../../pipeline/figures.ts";

/** Markdown prose of `n` paragraphs under one heading: its summary is far smaller than itself. */
function prose(title: string, n: number): string {
  const paragraphs = Array.from(
    { length: n },
    (_, i) => `Paragraph ${i} of ${title} says something long enough to cost tokens in full.`,
  );
  return `# ${title}\n\n${paragraphs.join("\n\n")}\n`;
}

/**
 * A repo where `hot.md`, the largest file, changed three times, the others
 * once; `big.md` is the largest of the rarely changed files.
 */
async function repo(): Promise<string> {
  const root = await makeProject({
    "big.md": prose("Big", 40),
    "mid.md": prose("Mid", 20),
    "small.md": prose("Small", 10),
    "hot.md": prose("Hot", 60),
    "focus.md": prose("Focus", 30),
  });
  await gitInit(root);
  for (const n of [61, 62]) {
    await Deno.writeTextFile(join(root, "hot.md"), prose("Hot", n));
    await git(root, "commit", "-q", "-am", `hot ${n}`);
  }
  return root;
}

const HISTORY = [{ role: "User", content: "Please fix the bug." }];

async function fullTokens(root: string, history = HISTORY): Promise<number> {
  const result = await buildContext({ cwd: root, inline: { history } }, { write: false });
  return result.manifest.total.tokens;
}

Deno.test("a budget one token short steps down only the least important file", async () => {
  const root = await repo();
  const total = await fullTokens(root);
  const result = await buildContext({
    cwd: root,
    focus: ["focus.md"],
    inline: { history: HISTORY, budget: { tokens: total - 1 } },
  }, { write: false });
  const budget = result.manifest.budget!;
  assert.equal(budget.before, total);
  assert.equal(budget.met, true);
  assert.ok(budget.after <= total - 1);
  assert.equal(budget.after, result.manifest.total.tokens);
  // Rarely changed, then largest first: big.md, not the larger hot.md (changed often), nor focus.md.
  assert.deepEqual(budget.steppedDown, [{ path: "big.md", from: "full", to: "summary" }]);
  const big = result.files.find((f) => f.path === "big.md")!;
  assert.equal(big.notes!.at(-1), "stepped down from full to summary to fit the token budget");
  assert.match(result.document, /### big.md\n\n\*\*Markdown\*\*, 81 lines\n- Big\n\n/);
});

Deno.test("a budget steps every file down once before any is stepped down twice", async () => {
  const root = await repo();
  const total = await fullTokens(root);
  const summaries = await buildContext({
    cwd: root,
    focus: ["focus.md"],
    inline: { history: HISTORY, defaultView: "summary", files: ["*.md", "focus.md"] },
  }, { write: false });
  // Just below "every non-focus file summarized": the first file must go to listed-only.
  const focusBlock = summaries.blocks.find((b) => b.id === "files:focus.md")!;
  const full = await buildContext({ cwd: root, inline: { history: HISTORY } }, { write: false });
  const focusFull = full.blocks.find((b) => b.id === "files:focus.md")!;
  const target = summaries.manifest.total.tokens - focusBlock.tokens + focusFull.tokens - 1;
  assert.ok(target < total);
  const result = await buildContext({
    cwd: root,
    focus: ["focus.md"],
    inline: { history: HISTORY, budget: { tokens: target } },
  }, { write: false });
  const steps = result.manifest.budget!.steppedDown.map((s) => `${s.path}:${s.from}>${s.to}`);
  assert.deepEqual(steps, [
    "big.md:full>summary",
    "mid.md:full>summary",
    "small.md:full>summary",
    "hot.md:full>summary",
    "big.md:summary>listed",
  ]);
  assert.equal(result.manifest.budget!.met, true);
  const big = result.manifest.files.find((f) => f.path === "big.md")!;
  assert.equal(big.view, "listed");
  assert.equal(big.status, "skipped");
  assert.doesNotMatch(result.document, /### big.md/);
  // The history block (volatile, not a file) is never touched.
  const history = (r: typeof result) => r.blocks.find((b) => b.section === "history")!.sha256;
  assert.equal(history(result), history(full));
});

Deno.test("a budget gives the same bytes on every build", async () => {
  const root = await repo();
  const total = await fullTokens(root);
  const flags = {
    cwd: root,
    inline: { history: HISTORY, budget: { tokens: Math.floor(total / 2) } },
  };
  const first = await buildContext(flags, { write: false });
  const second = await buildContext(flags, { write: false });
  assert.equal(first.document, second.document);
  assert.deepEqual(first.manifest.budget, second.manifest.budget);
  assert.ok(first.manifest.budget!.met);
});

Deno.test("a budget that cannot be met keeps focus and forceFull files and says so", async () => {
  const root = await repo();
  const result = await buildContext({
    cwd: root,
    focus: ["focus.md"],
    inline: {
      history: HISTORY,
      files: ["*.md", { path: "hot.md", forceFull: true }],
      budget: { tokens: 50 },
    },
  }, { write: false });
  const budget = result.manifest.budget!;
  assert.equal(budget.met, false);
  assert.ok(budget.after > 50);
  const views = Object.fromEntries(result.files.map((f) => [f.path, f.view]));
  assert.deepEqual(views, {
    "big.md": "listed",
    "focus.md": "full",
    "hot.md": "full",
    "mid.md": "listed",
    "small.md": "listed",
  });
  assert.ok(
    result.warnings.includes(
      `Token budget of 50 cannot be met: the document has ${
        formatCount(budget.after)
      } tokens with every file ` +
        "stepped down as far as it goes (focus and forceFull files and other sections are kept)",
    ),
  );
});

Deno.test("--budget beats the persona's budget, which beats the config's", async () => {
  const root = await repo();
  const total = await fullTokens(root, []);
  await Deno.writeTextFile(
    join(root, "slop.config.ts"),
    `export default { files: ["*.md"], budget: { tokens: ${total * 2} }, ` +
      `personas: { tight: { budget: ${total - 1} } } };\n`,
  );
  const loose = await runCliShared(["build", "--json", "--stdout"], root);
  assert.equal(loose.code, 0, loose.stderr);
  assert.match(loose.stderr, /budget: [\d,]+ of [\d,]+ o200k tokens, nothing stepped down/);
  const persona = await runCliShared(["build", "--persona", "tight", "--stdout"], root);
  assert.match(
    persona.stderr,
    /budget: [\d,]+ of [\d,]+ o200k tokens \([\d,]+ before stepping 1 file down\):/,
  );
  assert.match(persona.stderr, /\n {2}stepped down: big.md full -> summary\n/);
  const flag = await runCliShared(
    ["build", "--persona", "tight", "--budget", "40", "--focus", "focus.md", "--stdout"],
    root,
  );
  assert.equal(flag.code, 0, flag.stderr);
  assert.match(flag.stderr, /budget: NOT MET, [\d,]+ o200k tokens for a budget of 40/);
  assert.match(flag.stderr, /stepped down: big.md full -> summary -> listed/);
  const bad = await runCliShared(["build", "--budget", "lots"], root);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /Invalid --budget "lots": expected a positive whole number of tokens/);
});

const GRAMMARS = ["skeleton", "outline"].every((v) =>
  defaultPlugins().some((p) => p.name === `slop:${v}`)
);

/** Python with `n` documented functions: every step of the ladder is smaller than the one before. */
function python(n: number): string {
  return Array.from(
    { length: n },
    (_, i) =>
      `def _helper_${i}(a, b):\n    total = 0\n    for x in range(a):\n        total += x * b + ${i}\n    return total\n\n\n` +
      `def public_${i}(value: int, scale: float = 1.0, offset: float = 0.0, label: str = "x") -> float:\n` +
      `    """Public entry ${i}."""\n    return _helper_${i}(value, ${i}) * scale + offset\n\n\n`,
  ).join("");
}

Deno.test({
  name: "code steps down full -> skeleton -> outline -> summary -> listed, one level at a time",
  ignore: !GRAMMARS,
  fn: async () => {
    const root = await makeProject({ "a.py": python(12), "b.py": python(6) });
    const steps: string[] = [];
    let previous = Infinity;
    // Tighten the budget until every file is listed; record each build's steps.
    for (let budget = 5000; budget > 0; budget = Math.floor(budget * 0.6)) {
      const result = await buildContext({ cwd: root, inline: { budget: { tokens: budget } } }, {
        write: false,
      });
      const report = result.manifest.budget!;
      if (report.met) assert.ok(report.after <= budget);
      assert.ok(report.after <= previous);
      previous = report.after;
      steps.push(result.files.map((f) => `${f.path}:${f.view}`).join(" "));
    }
    const seen = [...new Set(steps)];
    // Largest first (no git: no change counts), and a file takes a step only when every other
    // file has taken the one before.
    assert.deepEqual(
      seen,
      [
        "a.py:full b.py:full",
        "a.py:skeleton b.py:full",
        "a.py:skeleton b.py:skeleton",
        "a.py:outline b.py:skeleton",
        "a.py:outline b.py:outline",
        "a.py:summary b.py:outline",
        "a.py:summary b.py:summary",
        "a.py:listed b.py:summary",
        "a.py:listed b.py:listed",
      ].filter((s) => seen.includes(s)),
    );
    assert.equal(seen.at(-1), "a.py:listed b.py:listed");
    assert.ok(seen.length >= 6, seen.join("\n"));
  },
});

Deno.test("a budget that steps files down reports each section warning once", async () => {
  const root = await makeProject({
    "a.md": prose("A", 40),
    "b.md": prose("B", 38),
    "chat.jsonl": '{"role":"user","content":"hello"}\nnot json\n',
  });
  const inline = { files: ["*.md"], history: "chat.jsonl" };
  const plain = await buildContext({ cwd: root, inline }, { write: false });
  const historyWarnings = plain.manifest.warnings.filter((w) => w.includes("chat.jsonl"));
  assert.deepEqual(historyWarnings, ['Skipped "chat.jsonl" line 2: not valid JSON']);

  const tokens = plain.manifest.total.tokens - 200;
  const fitted = await buildContext({ cwd: root, inline: { ...inline, budget: { tokens } } }, {
    write: false,
  });
  assert.ok(fitted.manifest.budget!.steppedDown.length >= 1);
  assert.deepEqual(
    fitted.manifest.warnings.filter((w) => w.includes("chat.jsonl")),
    historyWarnings,
  );
});

Deno.test("a step too large to take back leaves the earlier ones free to be taken back", async () => {
  // hot.md changes often, so it is stepped last; taking it back passes the budget, but small.md's
  // step, taken before it, fits back: the budget's room is used, not left empty.
  const root = await repo();
  const build = async (files: (string | { path: string; view: string })[], tokens?: number) =>
    (await buildContext({
      cwd: root,
      focus: ["focus.md"],
      inline: { history: HISTORY, files, ...(tokens ? { budget: { tokens } } : {}) },
    }, { write: false })).manifest;
  const stepped = ["big.md", "mid.md", "small.md", "hot.md"];
  const full = await build(["*.md"]);
  const summary = await build(["*.md", ...stepped.map((path) => ({ path, view: "summary" }))]);
  const saving = (path: string) =>
    full.blocks.find((b) => b.id === `files:${path}`)!.tokens -
    summary.blocks.find((b) => b.id === `files:${path}`)!.tokens;
  // Room for small.md in full beside the others' summaries, not for mid.md or hot.md.
  const margin = Math.floor((saving("mid.md") - saving("small.md")) / 2);
  const tokens = summary.total.tokens + saving("small.md") + margin;
  const manifest = await build(["*.md"], tokens);
  assert.ok(manifest.total.tokens <= tokens, `${manifest.total.tokens} > ${tokens}`);
  assert.deepEqual(manifest.budget!.steppedDown.map((s) => s.path).sort(), [
    "big.md",
    "hot.md",
    "mid.md",
  ]);
  assert.equal(manifest.files.find((f) => f.path === "small.md")!.view, "full");
});
