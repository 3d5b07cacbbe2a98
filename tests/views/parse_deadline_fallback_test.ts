import assert from "node:assert/strict";
import { renderOrFallback } from "../../plugins/view_modes/_code.ts";
import type { ViewContext, ViewOutput } from "../../pipeline/types.ts";

// A text tree-sitter parses in few steps but in time that grows with the square of its length:
// past a 50 ms deadline on any machine, and far under the default work budget.
const SLOW = `object A { val x = ${"a ? b : ".repeat(2000)}c }\n`;

/** A view context whose summary is a fixed unfenced text, as a code file's summary is. */
function context(): ViewContext {
  const summary: ViewOutput = { text: "**Scala**, 1 line", fenced: false };
  return { renderAs: () => Promise.resolve(summary) } as unknown as ViewContext;
}

async function fallback(code: { maxParseMs?: number; maxWork?: number }): Promise<ViewOutput> {
  const file = { path: "slow.scala", absPath: "/x/slow.scala", text: SLOW, sha256: "" };
  return await renderOrFallback(file, context(), {
    view: "skeleton",
    code,
    finish: (view) => ({ text: view.text }),
  });
}

Deno.test("a parse past its deadline falls back as a parse over its work budget does: the same block and fallback, whichever limit a machine meets first", async () => {
  const late = await fallback({ maxParseMs: 50 });
  const spent = await fallback({ maxWork: 10 });
  // The text a reader sees and the manifest's fallback do not depend on the machine's speed.
  assert.equal(
    late.text,
    "(skeleton view over its work budget: summary shown)\n\n**Scala**, 1 line",
  );
  assert.equal(late.text, spent.text);
  assert.equal(late.fallback, "skeleton -> summary: over its work budget");
  assert.equal(late.fallback, spent.fallback);
  assert.equal(late.view, "summary");
  // The note still says which limit it was; both are kept for the next build.
  assert.match(
    late.notes![0],
    /cannot parse "slow\.scala": parse stopped at its deadline of 0\.05 s/,
  );
  assert.match(spent.notes![0], /stopped: work budget of 10 units/);
  assert.equal(late.cacheable, undefined);
  assert.equal(spent.cacheable, undefined);
});
