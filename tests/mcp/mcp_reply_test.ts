import assert from "node:assert/strict";
import { loadMcpClient, loadMcpServer } from "../../deps.ts";
import { createMcpServer } from "../../cli/_mcp_server.ts";
import { documentParts, REPLY_TOKENS, replyTokens } from "../../cli/_mcp_reply.ts";
import {
  buildContextTool,
  MAX_INLINE_TOKENS,
  tokenStatsTool,
  viewFilesTool,
} from "../../cli/_mcp_tools.ts";
import { countTokens } from "../../pipeline/tokens.ts";
import { makeProject } from "../_helpers.ts";

// Claude Code refuses a tool result of more than 25,000 tokens, counted over all of its texts:
// the limit of a reply holds for the summary, the document or files, and the data together.

/** `count` modules of about 1,500 tokens each. */
function modules(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let f = 0; f < count; f++) {
    files[`src/mod_${String(f).padStart(2, "0")}.py`] = Array.from(
      { length: 60 },
      (_, i) => `def fn_${f}_${i}(alpha, beta):\n    return alpha * ${i} + beta - ${f}\n`,
    ).join("\n");
  }
  return files;
}

/** What a client receives as text: the texts, what was built, the data as JSON. */
function sent(out: { texts: string[]; built?: string; data: unknown }): string[] {
  return [...out.texts, ...(out.built === undefined ? [] : [out.built]), JSON.stringify(out.data)];
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

Deno.test("build_context and view_files keep the whole reply within the limit, not only the document", async () => {
  const root = await makeProject(modules(4));
  const first = await inProject(root, () => buildContextTool({}, { root }));
  const doc = (first.data.total as { tokens: number }).tokens;
  // A limit the document alone fits, but not with the summary and data beside it.
  for (const limit of [doc + 5, doc + 200, doc + 5000]) {
    const out = await inProject(root, () => buildContextTool({ maxInlineTokens: limit }, { root }));
    const tokens = await replyTokens(sent(out));
    assert.ok(tokens <= limit, `maxInlineTokens ${limit}: a reply of ${tokens} tokens`);
    assert.equal(out.data.inline, out.built !== undefined);
    if (!out.data.inline) {
      assert.match(out.texts[0], /so not inline: .*or build again with "budget": \d+000/);
    }
  }
  // view_files: the shown files, the lines of the others and the data, within maxTokens.
  const all = await inProject(root, () => viewFilesTool({ files: ["src/**"] }, { root }));
  const each = (all.data.files as Array<{ tokens: number }>).map((f) => f.tokens);
  const limit = each[0] + each[1];
  const out = await inProject(
    root,
    () => viewFilesTool({ files: ["src/**"], maxTokens: limit }, { root }),
  );
  const tokens = await replyTokens(sent(out));
  assert.ok(tokens <= limit, `maxTokens ${limit}: a reply of ${tokens} tokens`);
  assert.ok((out.data.files as Array<{ shown: boolean }>).some((f) => f.shown));
});

Deno.test("view_files with many files and token_stats with a large top list what fits a reply", async () => {
  const files: Record<string, string> = {};
  for (let f = 0; f < 600; f++) files[`src/deeply/nested/module_${f}.py`] = `X_${f} = ${f}\n`;
  const root = await makeProject(files);
  // A limit the lines of 600 files alone pass: none shown, the first ones listed, and a count.
  const limit = 400;
  const out = await inProject(
    root,
    () => viewFilesTool({ files: ["src/**"], maxFiles: 1000, maxTokens: limit }, { root }),
  );
  const tokens = await replyTokens(sent(out));
  assert.ok(tokens <= limit, `maxTokens ${limit}: a reply of ${tokens} tokens`);
  const listed = (out.data.files as unknown[]).length;
  assert.ok(listed > 0 && listed < 600, `${listed} listed`);
  assert.equal(out.data.moreFiles, 600 - listed);
  assert.match(out.built!, new RegExp(`\\(${600 - listed} more files not listed: `));
  // token_stats of every file: as many as fit.
  const stats = await inProject(
    root,
    () => tokenStatsTool({ top: 100_000, build: true }, { root }),
  );
  assert.ok((await replyTokens(sent(stats))) <= MAX_INLINE_TOKENS);
  const shown = (stats.data.files as unknown[]).length;
  assert.ok(shown > 20 && shown < 600, `${shown} files listed`);
  assert.match(stats.texts[1], new RegExp(`^\\(${shown} files listed of the top 100000 asked`));
  const whole = await inProject(root, () => tokenStatsTool({ top: 20, build: true }, { root }));
  assert.equal((whole.data.files as unknown[]).length, 20);
});

Deno.test("documentParts cuts at line ends within the limit, and the parts join to the document", async () => {
  const long = "var a=1;".repeat(3000); // one line of about 6,000 tokens
  const emoji = "\u{1F600}".repeat(500);
  const text = `# doc\n\n${Object.values(modules(2)).join("\n")}\n${long}\n${emoji}\nend`;
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

Deno.test("slop://latest/document and its manifest come in parts when longer than a reply", async () => {
  const root = await makeProject(modules(16));
  const sdk = await loadMcpServer();
  const { Client, InMemoryTransport } = await loadMcpClient();
  const [a, b] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer(sdk, { root });
  await server.connect(a);
  const client = new Client({ name: "parts-test", version: "1.0.0" });
  await client.connect(b);
  const cwd = Deno.cwd();
  try {
    const built = await client.callTool({ name: "build_context", arguments: {} });
    const data = built.structuredContent as { document: string; total: { tokens: number } };
    assert.ok(data.total.tokens > REPLY_TOKENS, `${data.total.tokens} tokens`);
    const file = await Deno.readTextFile(`${root}/${data.document}`);
    const read = async (uri: string) =>
      (await client.readResource({ uri })).contents as Array<{ text: string; mimeType: string }>;
    const first = await read("slop://latest/document");
    assert.equal(first.length, 2);
    assert.equal(
      first[0].text,
      `slop: part 1 of 2 of the document "${data.document}" (at most ${REPLY_TOKENS} tokens a ` +
        "part; the parts joined, without these notes, are the file): read " +
        "slop://latest/document/2 next",
    );
    const second = await read("slop://latest/document/2");
    assert.match(second[0].text, /part 2 of 2 .*: this is the last$/);
    assert.equal(first[1].text + second[1].text, file);
    assert.equal((await read("slop://latest/document/1"))[1].text, first[1].text);
    for (const part of [first[1], second[1]]) {
      assert.ok((await countTokens(part.text)) <= REPLY_TOKENS);
      assert.equal(part.mimeType, "text/markdown");
    }
    await assert.rejects(
      () => read("slop://latest/document/3"),
      /No part 3: the latest document has 2 parts \(slop:\/\/latest\/document\/1 to slop:\/\/latest\/document\/2\)/,
    );
    await assert.rejects(() => read("slop://latest/document/0"), /Invalid part "0"/);
    // The manifest, in parts too when long, joins to the JSON written.
    const manifest = await read("slop://latest/manifest");
    const rest = manifest.length === 1 ? "" : await readRest(read, manifest[0].text);
    const json = (manifest.length === 1 ? manifest[0].text : manifest[1].text) + rest;
    assert.equal(JSON.parse(json).total.tokens, data.total.tokens);
  } finally {
    await client.close();
    await server.close();
    Deno.chdir(cwd);
  }
});

/** The manifest's parts after the first, followed by each note's next URI. */
async function readRest(
  read: (uri: string) => Promise<Array<{ text: string }>>,
  note: string,
): Promise<string> {
  let text = "";
  for (let next = note.match(/read (\S+) next$/)?.[1]; next;) {
    const [head, part] = await read(next);
    text += part.text;
    next = head.text.match(/read (\S+) next$/)?.[1];
  }
  return text;
}
