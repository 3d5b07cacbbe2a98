import assert from "node:assert/strict";
import { renderOrFallback } from "../../plugins/view_modes/_code.ts";
import { isClockError } from "../../pipeline/helpers.ts";
import type { ViewContext, ViewOutput } from "../../pipeline/types.ts";
import { buildContext } from "../../mod.ts";
import { makeProject, tempDir } from "../_helpers.ts";

// A text tree-sitter parses in few steps but in time that grows with the square of its length:
// the parser reads it again thousands of times over, which the work budget counts.
const SLOW = `object A { val x = ${"a ? b : ".repeat(2000)}c }\n`;

/** A view context whose summary is a fixed unfenced text, as a code file's summary is. */
function context(): ViewContext {
  const summary: ViewOutput = { text: "**Scala**, 1 line", fenced: false };
  return { renderAs: () => Promise.resolve(summary) } as unknown as ViewContext;
}

async function fallback(
  text: string,
  code: { maxParseMs?: number; maxWork?: number },
): Promise<ViewOutput> {
  const file = { path: "slow.scala", absPath: "/x/slow.scala", text, sha256: "" };
  return await renderOrFallback(file, context(), {
    view: "skeleton",
    code,
    finish: (view) => ({ text: view.text }),
  });
}

Deno.test("a parse that slows down as it goes falls back over its work budget, with no clock", async () => {
  const spent = await fallback(SLOW, { maxParseMs: Infinity });
  assert.equal(
    spent.text,
    "(skeleton view over its work budget: summary shown)\n\n**Scala**, 1 line",
  );
  assert.equal(spent.fallback, "skeleton -> summary: over its work budget");
  assert.equal(spent.view, "summary");
  assert.match(spent.notes![0], /stopped: work budget of 3000000 units/);
  assert.equal(spent.cacheable, undefined);
});

Deno.test("a parse past its deadline fails the render with a ClockError naming the file, never a fallback the clock chose", async () => {
  for (const text of [SLOW, "object A {\n  def f(x: Int): Int = x + 1\n}\n"]) {
    await assert.rejects(
      () => fallback(text, { maxParseMs: -1 }),
      (error) => {
        assert.ok(isClockError(error), String(error));
        assert.match(
          String(error),
          /^ClockError: Cannot render "slow\.scala" as skeleton in time: parse stopped at its deadline of -0\.001 s before its work budget was spent .*; the build stops, as the file would otherwise show what this machine's speed decided/,
        );
        return true;
      },
    );
  }
});

Deno.test("a build whose parse a clock stops fails with that error: no document the machine's speed decided", async () => {
  const code = new URL("../../plugins/view_modes/_code.ts", import.meta.url).href;
  const root = await makeProject({
    "src/a.py": "def f(x):\n    return x\n",
    "src/b.md": "# B\n",
    "slop.config.ts": `import { renderOrFallback } from ${JSON.stringify(code)};
export default {
  plugins: [{
    kind: "view-mode", name: "late", version: "1",
    render: (file, ctx) => renderOrFallback(file, ctx, {
      view: "skeleton", code: { maxParseMs: -1 }, finish: (c) => ({ text: c.text }),
    }),
  }],
  files: ["src/**", { path: "src/a.py", view: "late" }],
};
`,
  });
  const stateDir = await tempDir();
  await assert.rejects(
    () => buildContext({ cwd: root, stateDir }, { write: false }),
    (error) => {
      assert.ok(isClockError(error), String(error));
      assert.match(
        String(error),
        /\[plugin late\] Hook "render" failed on "src\/a\.py": Cannot render "src\/a\.py" as skeleton in time: parse stopped at its deadline/,
      );
      return true;
    },
  );
});
