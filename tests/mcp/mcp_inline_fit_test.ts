import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, prng } from "../_helpers.ts";
import { buildContextTool } from "../../cli/_mcp_tools.ts";
import { replyTokens } from "../../cli/_mcp_reply.ts";
import type { Manifest } from "../../mod.ts";

// An agent asks build_context for a document within a budget below maxInlineTokens, as docs/mcp.md
// and the skill advise ("budget": 16000 under 18,000). On a real project (laravel/framework: 3,341
// files stepped down, 84 secrets redacted) the summary's and the data's lists (20 steps, 20
// redactions, 20 files skipped, each twice) took some 3,500 tokens, and the document within its
// budget came back as a path, with advice to build again.

const random = prng(44);
const ALNUM = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
const letters = (n: number) =>
  Array.from({ length: n }, () => ALNUM[Math.floor(random() * ALNUM.length)]).join("") + "9aZ";

/** Modules of a few hundred tokens, each with a token a build redacts, and lockfiles it skips. */
function tree(): Record<string, string> {
  const files: Record<string, string> = {};
  const topics = ["cookie", "redirect", "timeout", "proxy", "retry", "stream", "header", "upload"];
  for (let f = 0; f < 40; f++) {
    const topic = topics[f % topics.length];
    files[`src/${topic}_${String(f).padStart(2, "0")}.py`] =
      `"""The ${topic} handling, part ${f}."""\n\nTOKEN = "ghp_${letters(33)}"\n\n` +
      Array.from(
        { length: 10 },
        (_, i) =>
          `def ${topic}_step_${i}(value):\n    """Apply ${topic} step ${i}."""\n` +
          `    return value + ${i}\n`,
      ).join("\n");
  }
  for (let f = 0; f < 6; f++) files[`pkg_${f}/package-lock.json`] = `{"lockfileVersion": ${f}}\n`;
  return files;
}

/** The counts of the summary's `files:` line. */
function summaryCounts(text: string) {
  const line = text.split("\n").find((l) => l.startsWith("files: "))!;
  const n = (re: RegExp) => Number(line.match(re)?.[1].replaceAll(",", "") ?? 0);
  return {
    rendered: n(/([\d,]+) rendered/),
    listed: n(/([\d,]+) listed to fit the budget/),
    skipped: n(/([\d,]+) skipped/),
    errors: n(/([\d,]+) errors?/),
  };
}

Deno.test("build_context returns a document within maxInlineTokens inline, cutting its lists short when they push it out", async () => {
  const root = await makeProject(tree());
  // The reply's lists, whole: how many tokens they take beside a document.
  const whole = await buildContextTool({ budget: 1500, maxInlineTokens: 0 }, { root });
  const wholeData = whole.data as {
    total: { tokens: number };
    budget: { steppedDown: unknown[] };
    warnings: string[];
  };
  assert.equal(wholeData.budget.steppedDown.length, 20);
  assert.equal(wholeData.warnings.length, 20);
  const doc = wholeData.total.tokens;
  assert.ok(doc <= 1500, `${doc} tokens`);
  // A limit the document fits in, but not with 20 steps and 20 redactions said twice.
  const limit = doc + 1000;
  const wholeRest = await replyTokens([whole.texts[0], JSON.stringify(whole.data)]);
  assert.ok(wholeRest > 1000, `the whole lists take ${wholeRest} tokens`);
  const out = await buildContextTool({ budget: 1500, maxInlineTokens: limit }, { root });
  const data = out.data as {
    inline: boolean;
    manifest: string;
    budget: { steppedDown: unknown[]; moreSteppedDown: number };
    warnings: string[];
    moreWarnings: number;
  };
  assert.equal(data.inline, true, out.texts[0]);
  assert.ok(out.built, "the document comes in the reply");
  const manifest: Manifest = JSON.parse(await Deno.readTextFile(join(root, data.manifest)));
  assert.equal(data.budget.steppedDown.length, 3);
  assert.equal(data.budget.moreSteppedDown, manifest.budget!.steppedDown.length - 3);
  assert.equal(data.warnings.length, 3);
  assert.equal(data.moreWarnings, manifest.warnings.length - 3);
  const text = out.texts[0];
  assert.match(text, /^lists cut to 3 items each so that the document fits the reply: /m);
  assert.equal(text.match(/^ {2}stepped down: /gm)?.length, 3);
  assert.match(text, /^ {2}\.\.\. and [\d,]+ more stepped down/m);
  assert.equal(text.match(/^warning: Redacted a secret/gm)?.length, 3);
  assert.match(text, /^warning: \.\.\. and 37 more secrets redacted/m);
  assert.match(text, /^document: [\d,]+ o200k tokens, in full below$/m);
  // A document over the limit itself keeps the whole lists: cutting them would not bring it in.
  const over = await buildContextTool({ budget: 1500, maxInlineTokens: doc - 1 }, { root });
  const overData = over.data as { inline: boolean; budget: { steppedDown: unknown[] } };
  assert.equal(overData.inline, false);
  assert.equal(overData.budget.steppedDown.length, 20);
  assert.doesNotMatch(over.texts[0], /lists cut to/);
  // Its counts are grouped by thousands, as the summary's are.
  assert.match(
    over.texts[0],
    /^document: 1,\d{3} o200k tokens, more than maxInlineTokens 1,\d{3} with the summary, so /m,
  );
});

Deno.test("build_context's data counts the files as its summary's files line does, with a task", async () => {
  const root = await makeProject(tree());
  const out = await buildContextTool(
    { task: "the retry step should stop after the proxy redirect", budget: 2500 },
    { root },
  );
  const data = out.data as {
    manifest: string;
    files: { rendered: number; listed: number; skipped: number; errors: number };
  };
  assert.deepEqual(data.files, summaryCounts(out.texts[0]));
  // The case that differed: files the map lists to fit the budget and the task section shows.
  const manifest: Manifest = JSON.parse(await Deno.readTextFile(join(root, data.manifest)));
  const rendered = manifest.files.filter((f) => f.status === "rendered").length;
  const inTask = manifest.task!.files.filter((f) => f.where === "task").length;
  assert.ok(inTask > 0 && data.files.rendered > rendered, JSON.stringify(data.files));
  assert.equal(data.files.skipped, 6);
  assert.equal(
    data.files.rendered + data.files.listed + data.files.skipped + data.files.errors,
    manifest.files.length,
  );
});
