// `slop mcp` over stdio, driven by the SDK's client as an agent would: every tool on a fixture
// project, the resources, and progress notifications of a long build.
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, runCliShared } from "../_helpers.ts";
import { connect, data, texts } from "./_client.ts";

const APP_PY = `"""A small app."""

import os


def helper(x):
    """Add one."""
    return x + 1


class Handler:
    """Handles things."""

    def handle(self, request):
        value = os.environ.get("X")
        return helper(request)

    def _private(self):
        return None
`;

const TREE = {
  "src/app.py": APP_PY,
  "src/util.ts":
    "/** Sum. */\nexport function sum(a: number, b: number): number {\n  return a + b;\n}\n",
  "README.md": "# Demo\n\nA project for the MCP tests.\n",
};

const TOOLS = ["build_context", "check_prefix", "explain", "token_stats", "view_files"];

Deno.test("slop mcp serves each tool over stdio on a project, and its latest output as resources", async (t) => {
  const root = await makeProject(TREE);
  const { client, close, stderr } = await connect(root);
  const call = (name: string, args: Record<string, unknown> = {}) =>
    client.callTool({ name, arguments: args });
  try {
    await t.step(
      "lists the tools, every argument described, unknown arguments refused",
      async () => {
        const { tools } = await client.listTools();
        assert.deepEqual(tools.map((t: { name: string }) => t.name).sort(), TOOLS);
        for (const tool of tools) {
          assert.ok(tool.description, `${tool.name} has a description`);
          assert.equal(tool.inputSchema.additionalProperties, false, tool.name);
          for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
            assert.ok((schema as { description?: string }).description, `${tool.name}.${name}`);
          }
        }
        assert.deepEqual(
          tools.find((t: { name: string }) => t.name === "view_files")!.inputSchema.required,
          [
            "files",
          ],
        );
      },
    );

    await t.step("a resource before any build says there is none", async () => {
      await assert.rejects(
        client.readResource({ uri: "slop://latest/document" }),
        /MCP error -32002: No written build in "\.slop\/out" yet/,
      );
    });

    let first = "";
    await t.step(
      "build_context writes a numbered build like slop build and returns it",
      async () => {
        const result = await call("build_context");
        assert.equal(result.isError, undefined, texts(result).join("\n"));
        const d = data(result);
        assert.equal(d.number, 1);
        assert.equal(d.document, ".slop/out/context_001.md");
        assert.equal(d.inline, true);
        assert.deepEqual(d.files, { rendered: 3, listed: 0, skipped: 0, errors: 0 });
        first = await Deno.readTextFile(join(root, d.document));
        const [summary, document] = texts(result);
        assert.equal(document, first);
        const manifest = JSON.parse(await Deno.readTextFile(join(root, d.manifest)));
        assert.deepEqual(d.prefix, manifest.prefix);
        assert.match(summary, new RegExp(`^prefix sha256: ${manifest.prefix.sha256}$`, "m"));
        assert.match(summary, /^slop: wrote \.slop\/out\/context_001\.md/);
        // The order memory is recorded, as by any build that writes.
        const order = [...Deno.readDirSync(join(root, ".slop", "order"))];
        assert.equal(order.length, 1);
        // The CLI builds the same bytes from the same state.
        const cli = await runCliShared(["build", "--stdout"], root);
        assert.equal(cli.code, 0, cli.stderr);
        assert.equal(cli.stdout, first);
      },
    );

    await t.step("the latest document and manifest are resources", async () => {
      const { resources } = await client.listResources();
      assert.deepEqual(resources.map((r: { uri: string }) => r.uri).sort(), [
        "slop://latest/document",
        "slop://latest/manifest",
      ]);
      const doc = await client.readResource({ uri: "slop://latest/document" });
      assert.equal((doc.contents[0] as { text: string }).text, first);
      assert.equal(doc.contents[0].mimeType, "text/markdown");
      const man = await client.readResource({ uri: "slop://latest/manifest" });
      const manifest = JSON.parse((man.contents[0] as { text: string }).text);
      assert.equal(manifest.output, ".slop/out/context_001.md");
    });

    await t.step("token_stats gives tokens by section and file of the latest output", async () => {
      const result = await call("token_stats", { top: 2 });
      const d = data(result);
      assert.equal(d.from, ".slop/out/context_001.md");
      assert.equal(d.files.length, 2);
      const manifest = JSON.parse(
        await Deno.readTextFile(join(root, ".slop/out/context_001.json")),
      );
      assert.equal(d.total.o200k, manifest.total.tokens);
      assert.deepEqual(d.sections.map((s: { section: string }) => s.section), ["files"]);
      assert.match(texts(result)[0], /^slop stats: \.slop\/out\/context_001\.md/);
      assert.match(texts(result)[0], /top 2 files by o200k tokens/);
    });

    await t.step("view_files renders files in each view mode", async () => {
      const view = async (args: Record<string, unknown>) => {
        const result = await call("view_files", args);
        assert.equal(result.isError, undefined, texts(result).join("\n"));
        return { text: texts(result)[0], files: data(result).files };
      };
      const skeleton = await view({ files: ["src/app.py"], view: "skeleton" });
      assert.match(skeleton.text, /^### src\/app\.py\n/);
      assert.match(skeleton.text, /def helper\(x\):\n {4}"""Add one\."""\n {4}\.\.\./);
      assert.doesNotMatch(skeleton.text, /return x \+ 1/);
      assert.equal(skeleton.files[0].view, "skeleton");
      assert.ok(skeleton.files[0].tokens > 0);

      const outline = await view({ files: ["src/*.py"], view: "outline" });
      assert.match(outline.text, /def helper\(x\)/);
      assert.doesNotMatch(outline.text, /Add one/);

      const masked = await view({
        files: ["src/app.py"],
        view: "masked",
        mask: { helper: "def", Handler: "sig" },
      });
      assert.match(masked.text, /return x \+ 1/);
      assert.match(masked.text, /class Handler:/);
      assert.doesNotMatch(masked.text, /os\.environ/);

      const sliced = await view({
        files: ["src/app.py"],
        view: "custom",
        slices: [{ startLine: 6, endLine: 8, tag: "helper" }],
      });
      assert.match(sliced.text, /\[Slice: helper\]\nLines 6-8:\ndef helper\(x\):/);
      assert.doesNotMatch(sliced.text, /class Handler/);

      const summary = await view({ files: ["src"], view: "summary" });
      assert.deepEqual(summary.files.map((f: { path: string }) => f.path), [
        "src/app.py",
        "src/util.ts",
      ]);
      // Without a view, each file gets the one the config gives it (zero-config: full).
      const full = await view({ files: ["README.md"] });
      assert.match(full.text, /A project for the MCP tests\./);
      assert.equal(full.files[0].view, "full");
      // A look writes nothing: still one build in the output folder.
      const outputs = [...Deno.readDirSync(join(root, ".slop", "out"))].map((e) => e.name);
      assert.deepEqual(outputs.filter((n) => n.endsWith(".md")), ["context_001.md"]);
    });

    await t.step(
      "check_prefix compares with slop.lock: missing, then the first divergence",
      async () => {
        // No lock is an error, as `slop check` exits 1 saying so.
        const none = await call("check_prefix");
        assert.equal(none.isError, true);
        assert.match(texts(none)[0], /^No lock "slop\.lock": run `slop check --update`/);
        const pin = await runCliShared(["check", "--update"], root);
        assert.equal(pin.code, 0, pin.stderr);
        const same = await call("check_prefix");
        assert.equal(data(same).matches, true);
        await Deno.writeTextFile(
          join(root, "src/util.ts"),
          TREE["src/util.ts"] + "\nexport const two = 2;\n",
        );
        const drift = await call("check_prefix", { maxInvalidated: "100%" });
        const d = data(drift);
        assert.equal(d.matches, false);
        assert.equal(d.diff.file, "src/util.ts");
        assert.equal(d.diff.kind, "changed");
        assert.ok(d.diff.invalidatedTokens > 0);
        assert.ok(d.costs.length >= 1 && d.costs.every((c: { dollars: number }) => c.dollars > 0));
        assert.equal(d.withinBudget, true);
        assert.match(texts(drift)[0], /first divergent block: #\d+ "files:src\/util\.ts"/);
        assert.match(texts(drift)[0], /cost of the next call: \+anthropic/);
        assert.match(texts(drift)[0], /within maxInvalidated 100%$/);
        const tight = await call("check_prefix", { maxInvalidated: "1" });
        assert.equal(data(tight).withinBudget, false);
      },
    );

    await t.step("a large document comes back as its path", async () => {
      const result = await call("build_context", { maxInlineTokens: 10 });
      const d = data(result);
      assert.equal(d.number, 2);
      assert.equal(d.inline, false);
      const all = texts(result);
      assert.equal(all.length, 2); // the summary and the data, no document
      assert.equal(all[1], JSON.stringify(d), "the data, as compact JSON");
      assert.match(
        all[0],
        /more than maxInlineTokens 10 with the summary, so not inline: read "\.slop\/out\/context_002\.md" or the resource slop:\/\/latest\/document \(in parts\)$/m,
      );
    });

    await t.step("explain names what ended the shared prefix of the last two builds", async () => {
      const result = await call("explain");
      const d = data(result);
      assert.deepEqual(d.builds, [1, 2]);
      assert.equal(d.ended.file, "src/util.ts");
      assert.equal(d.ended.kind, "changed");
      assert.ok(d.bytes > 0 && d.bytes < d.totalBytes);
      assert.match(texts(result)[0], /ended by: "files:src\/util\.ts"/);
    });
  } finally {
    await close();
  }
  assert.match(stderr(), /slop mcp: serving .* over stdio/);
});

Deno.test("build_context reports progress to a client that asks for it", async () => {
  const tree: Record<string, string> = {};
  for (let i = 0; i < 120; i++) {
    tree[`m/mod_${String(i).padStart(3, "0")}.ts`] = `export const v${i} = ${i};\n`;
  }
  const root = await makeProject(tree);
  const { client, close, progress } = await connect(root);
  // A call's notifications, read off the stream (`progress()` of `_client.ts`: the SDK's
  // `onprogress` can miss the last ones, read together with the reply).
  const told = async (name: string, args: Record<string, unknown>) => {
    const before = progress().length;
    const result = await client.callTool({ name, arguments: args }, undefined, {
      onprogress: () => {},
    });
    return { result, notes: progress().slice(before) };
  };
  try {
    const { result, notes: seen } = await told("build_context", { maxInlineTokens: 0 });
    assert.equal(result.isError, undefined);
    assert.ok(seen.length >= 2, `progress notifications: ${JSON.stringify(seen)}`);
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i].progress > seen[i - 1].progress);
    assert.match(seen[0].message!, /^rendered \d+ of 120 files/);
    const last = seen.at(-1)!;
    assert.equal(last.progress, last.total);
    // With a budget, stepping files down is told too (a big tree's first budgeted build spends
    // most of its time there), still only forward.
    const { notes: stepped } = await told("build_context", { maxInlineTokens: 0, budget: 200 });
    for (let i = 1; i < stepped.length; i++) {
      assert.ok(stepped[i].progress > stepped[i - 1].progress);
    }
    assert.match(
      stepped.at(-1)!.message!,
      /^fitting the budget: stepped files down by [\d,]+ of the [\d,]+ tokens over it$/,
    );
    // Calls that come together run one after the other (a call without a progress token
    // gets none, and still works); identical ones share one build.
    const both = await Promise.all([
      client.callTool({ name: "build_context", arguments: { maxInlineTokens: 0 } }),
      client.callTool({ name: "build_context", arguments: { maxInlineTokens: 1 } }),
      client.callTool({ name: "build_context", arguments: { maxInlineTokens: 1 } }),
    ]);
    assert.deepEqual(both.map((r: unknown) => data(r).number), [3, 4, 4]);
    // check_prefix builds the whole project too, and says how far it got.
    const { notes: checked } = await told("check_prefix", {});
    assert.match(checked[0]?.message ?? "", /^rendered \d+ of 120 files/, JSON.stringify(checked));
  } finally {
    await close();
  }
});

Deno.test("cancelling build_context stops the build before it writes anything", async () => {
  const tree: Record<string, string> = {};
  for (let i = 0; i < 150; i++) {
    tree[`m/mod_${String(i).padStart(3, "0")}.ts`] =
      `/** Value ${i}. */\nexport function v${i}(x: number): number {\n  return x + ${i};\n}\n`;
  }
  const root = await makeProject(tree);
  const { client, close } = await connect(root);
  try {
    // Cancelled as the first file is rendered: the build stops at the next one.
    const stop = new AbortController();
    const cancelled = client.callTool(
      { name: "build_context", arguments: { maxInlineTokens: 0, budget: 300 } },
      undefined,
      { signal: stop.signal, onprogress: () => stop.abort() },
    );
    await assert.rejects(cancelled, /abort/i);
    // Queued behind it, this build runs, and is the first to write: the cancelled one wrote no
    // document and took no number.
    const next = await client.callTool({
      name: "build_context",
      arguments: { maxInlineTokens: 0 },
    });
    assert.equal(data(next).number, 1);
    const written = [...Deno.readDirSync(join(root, ".slop/out"))].map((e) => e.name).sort();
    assert.deepEqual(written.filter((n) => /^context_\d+\.md$/.test(n)), ["context_001.md"]);
  } finally {
    await close();
  }
});
