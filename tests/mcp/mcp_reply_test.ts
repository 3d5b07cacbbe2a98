import assert from "node:assert/strict";
import { documentParts, partCutter, REPLY_TOKENS, replyTokens } from "../../cli/_mcp_reply.ts";
import { MAX_INLINE_TOKENS } from "../../cli/_mcp_tools.ts";
import { countTokens } from "../../pipeline/tokens.ts";
import { makeProject } from "../_helpers.ts";
import { connect, data, texts } from "./_client.ts";

// Claude Code refuses a tool result of more than 25,000 tokens, counted over all of its texts:
// the limit of a reply holds for the summary, the document or files, and the data together.
// The server runs in a process of its own (it works in the project's folder).

/** `count` modules of about 1,500 tokens each under `src/`, and `tiny` one-line files. */
function project(count: number, tiny: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let f = 0; f < count; f++) {
    files[`src/mod_${String(f).padStart(2, "0")}.py`] = Array.from(
      { length: 60 },
      (_, i) => `def fn_${f}_${i}(alpha, beta):\n    return alpha * ${i} + beta - ${f}\n`,
    ).join("\n");
  }
  for (let f = 0; f < tiny; f++) files[`many/deeply/nested/module_${f}.py`] = `X_${f} = ${f}\n`;
  return files;
}

Deno.test("every reply of slop mcp stays within its limit, and long resources come in parts", async (t) => {
  const root = await makeProject(project(16, 600));
  const session = await connect(root);
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await session.client.callTool({ name, arguments: args });
    assert.notEqual(result.isError, true, `${name}: ${texts(result).join("\n")}`);
    return { result, tokens: await replyTokens(texts(result)) };
  };
  try {
    await t.step("build_context: the summary and data count, not only the document", async () => {
      const paths = ["src/mod_00.py", "src/mod_01.py", "src/mod_02.py", "src/mod_03.py"];
      const first = await call("build_context", { paths });
      const doc = data(first.result).total.tokens;
      // A limit the document alone fits, but not with the summary and data beside it.
      for (const limit of [doc + 5, doc + 200, doc + 5000]) {
        const { result, tokens } = await call("build_context", { paths, maxInlineTokens: limit });
        assert.ok(tokens <= limit, `maxInlineTokens ${limit}: a reply of ${tokens} tokens`);
        assert.equal(data(result).inline, texts(result).length === 3);
        if (!data(result).inline) {
          assert.match(texts(result)[0], /so not inline: .*or build again with "budget": \d+000/);
        }
      }
    });

    await t.step("view_files: the shown files, the others' lines and the data", async () => {
      const files = ["src/mod_00.py", "src/mod_01.py", "src/mod_02.py"];
      const all = await call("view_files", { files });
      const each = data(all.result).files.map((f: { tokens: number }) => f.tokens);
      const limit = each[0] + each[1];
      const { result, tokens } = await call("view_files", { files, maxTokens: limit });
      assert.ok(tokens <= limit, `maxTokens ${limit}: a reply of ${tokens} tokens`);
      assert.ok(data(result).files.some((f: { shown: boolean }) => f.shown));
    });

    await t.step("view_files and token_stats list as many files as fit", async () => {
      // A limit the lines of 600 files alone pass: none shown, the first ones listed, a count.
      const limit = 400;
      const { result, tokens } = await call(
        "view_files",
        { files: ["many/**"], maxFiles: 1000, maxTokens: limit },
      );
      assert.ok(tokens <= limit, `maxTokens ${limit}: a reply of ${tokens} tokens`);
      const listed = data(result).files.length;
      assert.ok(listed > 0 && listed < 600, `${listed} listed`);
      assert.equal(data(result).moreFiles, 600 - listed);
      assert.match(texts(result)[0], new RegExp(`\\(${600 - listed} more files not listed: `));
      const stats = await call("token_stats", { top: 100_000, build: true });
      assert.ok(stats.tokens <= MAX_INLINE_TOKENS, `token_stats: ${stats.tokens} tokens`);
      const shown = data(stats.result).files.length;
      assert.ok(shown > 20 && shown < 616, `${shown} files listed`);
      assert.match(texts(stats.result)[1], new RegExp(`^\\(${shown} files listed of the top`));
    });

    await t.step("slop://latest/document and its manifest, in parts", async () => {
      const built = await call("build_context", { paths: ["src/**"] });
      const { document, total } = data(built.result);
      assert.ok(total.tokens > REPLY_TOKENS, `${total.tokens} tokens`);
      const file = await Deno.readTextFile(`${root}/${document}`);
      const read = async (uri: string) =>
        (await session.client.readResource({ uri })).contents as Array<
          { text: string; mimeType: string }
        >;
      const first = await read("slop://latest/document");
      assert.equal(first.length, 2);
      assert.equal(
        first[0].text,
        `slop: part 1 of 2 of the document "${document}" (at most ${REPLY_TOKENS} tokens a ` +
          "part; the parts joined, without these notes, are the file): read " +
          "slop://latest/document/2 next",
      );
      const second = await read("slop://latest/document/2");
      assert.match(second[0].text, /part 2 of 2 .*: this is the last$/);
      assert.equal(first[1].text + second[1].text, file);
      assert.equal((await read("slop://latest/document/1"))[1].text, first[1].text);
      // A reply is the part and its note: together within the limit.
      for (const reply of [first, second]) {
        const tokens = await replyTokens(reply.map((c) => c.text));
        assert.ok(tokens <= REPLY_TOKENS, `a part and its note: ${tokens} tokens`);
        assert.equal(reply[1].mimeType, "text/markdown");
      }
      await assert.rejects(
        () => read("slop://latest/document/3"),
        /MCP error -32602: No part 3: the latest document has 2 parts \(slop:\/\/latest\/document\/1 to slop:\/\/latest\/document\/2\)/,
      );
      await assert.rejects(
        () => read("slop://latest/document/0"),
        /MCP error -32602: Invalid part "0"/,
      );
      // A number past 2^53 is named as it was sent (it was "No part 100000000000000000000", and
      // "No part Infinity" for 400 digits).
      for (const part of ["99999999999999999999", "9".repeat(400)]) {
        await assert.rejects(
          () => read(`slop://latest/document/${part}`),
          new RegExp(`MCP error -32602: Invalid part "${part.slice(0, 20)}`),
        );
      }
      // The manifest, in parts too when long, joins to the file written, byte for byte.
      let manifest = "";
      for (let next: string | undefined = "slop://latest/manifest"; next;) {
        const contents = await read(next);
        const tokens = await replyTokens(contents.map((c) => c.text));
        assert.ok(tokens <= REPLY_TOKENS, `${next}: ${tokens} tokens`);
        manifest += contents.at(-1)!.text;
        next = contents.length === 2 ? contents[0].text.match(/read (\S+) next$/)?.[1] : undefined;
      }
      assert.equal(manifest, await Deno.readTextFile(`${root}/${data(built.result).manifest}`));
      assert.equal(JSON.parse(manifest).total.tokens, total.tokens);
      // The manifest of all 616 files has short lines that fill a part to its last tokens: its
      // note must still fit beside it.
      const all = data((await call("build_context", {})).result).manifest;
      let whole = "";
      let parts = 0;
      for (let next: string | undefined = "slop://latest/manifest"; next; parts++) {
        const contents = await read(next);
        const tokens = await replyTokens(contents.map((c) => c.text));
        assert.ok(tokens <= REPLY_TOKENS, `${next}: ${tokens} tokens`);
        whole += contents.at(-1)!.text;
        next = contents.length === 2 ? contents[0].text.match(/read (\S+) next$/)?.[1] : undefined;
      }
      assert.ok(parts > 1, `${parts} parts`);
      assert.equal(whole, await Deno.readTextFile(`${root}/${all}`));
    });
  } finally {
    await session.close();
  }
});

Deno.test("documentParts cuts at line ends within the limit, and the parts join to the document", async () => {
  const long = "var a=1;".repeat(3000); // one line of about 6,000 tokens
  const emoji = "\u{1F600}".repeat(500);
  const text = `# doc\n\n${Object.values(project(2, 0)).join("\n")}\n${long}\n${emoji}\nend`;
  const parts = await documentParts(text, 1000);
  assert.equal(parts.join(""), text);
  assert.ok(parts.length > 6, `${parts.length} parts`);
  for (const part of parts) {
    assert.ok((await countTokens(part)) <= 1000, `a part of ${await countTokens(part)} tokens`);
    assert.doesNotMatch(part, /^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
  }
  assert.deepEqual(await documentParts("short\n", 1000), ["short\n"]);
  assert.deepEqual(await documentParts("", 1000), [""]);
});

Deno.test("partCutter cuts a document once for all its parts, and again when it or the limit changes", async () => {
  const text = Object.values(project(2, 0)).join("\n");
  const cutter = partCutter();
  const parts = await cutter.parts(text, 200);
  assert.deepEqual(parts, await documentParts(text, 200));
  assert.ok(parts.length > 2, `${parts.length} parts`);
  for (let i = 0; i < parts.length; i++) assert.deepEqual(await cutter.parts(text, 200), parts);
  assert.equal(cutter.cuts, 1);
  assert.deepEqual(await cutter.parts(text + "x\n", 200), await documentParts(text + "x\n", 200));
  assert.deepEqual(await cutter.parts(text, 300), await documentParts(text, 300));
  assert.equal(cutter.cuts, 3);
  // Reads at once (a client that asks for every part together) share one cut.
  const together = await Promise.all([1, 2, 3].map(() => cutter.parts(text + "y\n", 200)));
  for (const got of together) assert.deepEqual(got, await documentParts(text + "y\n", 200));
  assert.equal(cutter.cuts, 4);
});
