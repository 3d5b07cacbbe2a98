// A task's text longer than its part of the budget (a pasted issue, a long commit message) takes
// room from the map: the document stays within the budget, and the build says its map is not the
// one other tasks share.
import assert from "node:assert/strict";
import { buildContext, countTokens, type SlopConfig } from "../../mod.ts";
import { taskProject } from "./_project.ts";

/** A task of many lines of varied words: about `lines` × 14 tokens. */
function longTask(lines: number): string {
  const words = ["cookie", "retry", "header", "limit", "parse", "stream", "value", "session"];
  const out = ["Fix the cookie handler: a cookie with an empty value is dropped", ""];
  for (let i = 0; i < lines; i++) {
    out.push(`- step ${i}: ${words[i % 8]} ${words[(i * 3) % 8]} then ${words[(i * 5) % 8]} #${i}`);
  }
  return out.join("\n");
}

async function buildFor(root: string, config: SlopConfig) {
  const warnings: string[] = [];
  const result = await buildContext({ cwd: root, inline: config }, {
    write: false,
    onWarning: (w) => warnings.push(w),
  });
  return { result, warnings };
}

Deno.test("a task text longer than the task's part of the budget takes room from the map, never over the budget", async () => {
  const root = await taskProject();
  const task = longTask(420);
  const textTokens = await countTokens(task);
  for (const tokens of [7000, 9000]) {
    assert.ok(textTokens > tokens / 2 && textTokens < tokens - 500, `${textTokens} of ${tokens}`);
    const { result, warnings } = await buildFor(root, { task, budget: { tokens } });
    assert.ok(
      result.manifest.total.tokens <= tokens,
      `${result.manifest.total.tokens} > ${tokens}`,
    );
    assert.ok((await countTokens(result.document)) <= tokens);
    assert.equal(result.manifest.budget?.met, true);
    assert.ok(result.document.includes("- step 419: "), "the task's text is whole");
    const said = warnings.filter((w) => w.includes("leaves the repository map"));
    assert.equal(said.length, 1, JSON.stringify(warnings));
    assert.match(
      said[0],
      /^the task's text \([\d,]+ tokens\) leaves the repository map [\d,]+ of its [\d,]+ tokens/,
    );
  }
});

Deno.test("a task text within its part leaves the map as other tasks have it", async () => {
  const root = await taskProject();
  const short = await buildFor(root, { task: "Raise the retry limit", budget: { tokens: 8000 } });
  const other = await buildFor(root, { task: "certificate", budget: { tokens: 8000 } });
  assert.equal(short.result.manifest.prefix.sha256, other.result.manifest.prefix.sha256);
  assert.ok(!short.warnings.some((w) => w.includes("leaves the repository map")));
});
