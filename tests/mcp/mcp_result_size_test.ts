// A tool result is read whole by the model: view_files shows files up to maxTokens in all and
// lists the rest with their tokens, so that `src/**` in full cannot fill an agent's context.
import assert from "node:assert/strict";
import { makeProject } from "../_helpers.ts";
import { MAX_INLINE_TOKENS, viewFilesTool } from "../../cli/_mcp_tools.ts";

/** Six modules of about 1,500 tokens each. */
function tree(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let f = 0; f < 6; f++) {
    files[`src/mod_${f}.py`] = Array.from(
      { length: 60 },
      (_, i) => `def fn_${f}_${i}(alpha, beta):\n    return alpha * ${i} + beta - ${f}\n`,
    ).join("\n");
  }
  return files;
}

async function inProject<T>(root: string, run: () => Promise<T>): Promise<T> {
  const here = Deno.cwd();
  Deno.chdir(root);
  try {
    return await run();
  } finally {
    Deno.chdir(here);
  }
}

Deno.test("view_files shows files in order up to maxTokens and lists the rest with their tokens", async () => {
  const root = await makeProject(tree());
  const out = await inProject(
    root,
    () => viewFilesTool({ files: ["src/**"], maxTokens: 4000 }, { root }),
  );
  const files = out.data.files as Array<{ path: string; tokens: number; shown: boolean }>;
  assert.equal(files.length, 6);
  const shown = files.filter((f) => f.shown);
  assert.ok(shown.length >= 1 && shown.length < 6, `${shown.length} shown`);
  assert.ok(shown.reduce((n, f) => n + f.tokens, 0) <= 4000);
  for (const f of files) {
    if (f.shown) assert.match(out.built!, new RegExp(`def fn_${f.path.at(-4)}_59`));
    else {
      assert.ok(
        out.built!.includes(
          `### ${f.path}\n\n(not shown: ${f.tokens} tokens, past maxTokens 4000 with the files ` +
            'before it: ask for it in a lighter view ("skeleton", "outline"), alone, or with a ' +
            "larger maxTokens)",
        ),
        f.path,
      );
    }
  }
  // The default holds all six (about 9,000 tokens).
  const all = await inProject(root, () => viewFilesTool({ files: ["src/**"] }, { root }));
  assert.ok(MAX_INLINE_TOKENS >= 9000);
  assert.ok((all.data.files as Array<{ shown: boolean }>).every((f) => f.shown));
  assert.doesNotMatch(all.built!, /not shown/);
});
