import assert from "node:assert/strict";
import { loadMcpClient, loadMcpServer } from "../../deps.ts";
import { createMcpServer } from "../../cli/_mcp_server.ts";
import { piecesOf } from "../secrets/_samples.ts";
import { makeProject, prng } from "../_helpers.ts";
import { formatCount } from "../../pipeline/figures.ts";
import { texts } from "./_client.ts";
import {
  buildContextTool,
  MAX_INLINE_TOKENS,
  tokenStatsTool,
  viewFilesTool,
} from "../../cli/_mcp_tools.ts";

// A tool's successful result quotes config values and arguments (the lock's name, the output
// folder, the command to run with the persona given): a key among them comes back redacted, in
// the texts and the data, while the document the build made comes back byte for byte.
const random = prng(61);
const ALNUM = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
const letters = (n: number) =>
  Array.from({ length: n }, () => ALNUM[Math.floor(random() * ALNUM.length)]).join("") + "9aZ";

Deno.test("tool results redact the config values and arguments they quote", async () => {
  const lockKey = `sk-proj-${letters(45)}`;
  // A persona named with a key is a config error (tests/secrets/no_leak_in_messages_test.ts); a
  // key passed as the persona argument is quoted back in the error, redacted.
  const personaKey = `ghp_${letters(33)}`;
  const persona = "reviewer";
  const dirKey = `sk-ant-api03-${letters(90)}AA`;
  const config = {
    files: ["a.py"],
    lock: `${lockKey}.lock`,
    output: { dir: `${dirKey}/out` },
    personas: { [persona]: { tier: 3 } },
  };
  const root = await makeProject({
    "a.py": "def f():\n    return 1\n",
    "slop.config.ts": `export default ${JSON.stringify(config)};\n`,
  });
  const sdk = await loadMcpServer();
  const { Client, InMemoryTransport } = await loadMcpClient();
  const [a, b] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer(sdk, { root });
  await server.connect(a);
  const client = new Client({ name: "redaction-test", version: "1.0.0" });
  await client.connect(b);
  const cwd = Deno.cwd();
  const replies: unknown[] = [];
  try {
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const result = await client.callTool({ name, arguments: args });
      assert.notEqual(result.isError, true, `${name}: ${texts(result).join("\n")}`);
      replies.push(result);
      return result;
    };
    const built = await call("build_context");
    await call("build_context", { persona });
    // No lock yet: an error (as `slop check` exits 1) that names the lock, redacted all the same.
    const unpinned = async (args: Record<string, unknown>) => {
      const result = await client.callTool({ name: "check_prefix", arguments: args });
      assert.equal(result.isError, true, texts(result).join("\n"));
      replies.push(result);
      return texts(result).join("\n");
    };
    const check = await unpinned({ persona });
    await unpinned({});
    await call("token_stats", { persona });
    await call("explain");
    await call("view_files", { files: ["a.py"] });
    // The manifest resource records the output path: redacted, and still JSON.
    const manifest = await client.readResource({ uri: "slop://latest/manifest" });
    replies.push(manifest);
    const { output } = JSON.parse((manifest.contents[0] as { text: string }).text);
    assert.match(output, /^\[REDACTED:anthropic-key\]\/out\/context_002\.md$/);
    // The key was quoted, and redacted where it was.
    assert.match(check, /\[REDACTED:openai-key\][^\n]*\.lock/);
    assert.match(check, /--persona reviewer/);
    const wrong = await client.callTool({
      name: "check_prefix",
      arguments: { persona: personaKey },
    });
    assert.equal(wrong.isError, true);
    assert.match(texts(wrong).join("\n"), /\[REDACTED:github\]/);
    replies.push(wrong);
    // The document comes back as the build wrote it.
    const data = (built as { structuredContent: { document: string } }).structuredContent;
    assert.match(data.document, /^\[REDACTED:anthropic-key\]\/out\//);
    const written = await Deno.readTextFile(
      `${root}/${data.document.replace(/^\[REDACTED:anthropic-key\]/, dirKey)}`,
    );
    assert.equal(texts(built)[1], written);
  } finally {
    await client.close();
    await server.close();
    assert.equal(Deno.cwd(), cwd, "a server made in this process keeps its working folder");
  }
  const sent = JSON.stringify(replies);
  const leaks = [lockKey, personaKey, dirKey].flatMap((key) => piecesOf(key)).filter((p) =>
    sent.includes(p)
  );
  assert.deepEqual(leaks, []);
});

// A tool result is read whole by the model: view_files shows files up to maxTokens in all and
// lists the rest with their tokens, so that `src/**` in full cannot fill an agent's context.
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

async function inProject<T>(_root: string, run: () => Promise<T>): Promise<T> {
  const here = Deno.cwd();
  const out = await run();
  assert.equal(Deno.cwd(), here);
  return out;
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
          `### ${f.path}\n\n(not shown: ${
            formatCount(f.tokens)
          } tokens, past maxTokens 4000 with the files ` +
            'before it: ask for it in a lighter view ("skeleton", "outline"), alone, or with a ' +
            "larger maxTokens)",
        ),
        f.path,
      );
    }
  }
  // A file larger than maxTokens on its own: "alone" would not help, a lighter view would.
  const one = files[0].path;
  const alone = await inProject(
    root,
    () => viewFilesTool({ files: [one], view: "skeleton", maxTokens: 10 }, { root }),
  );
  const tokens = (alone.data.files as Array<{ tokens: number }>)[0].tokens;
  assert.equal(
    alone.built?.trimEnd(),
    `### ${one}\n\n(not shown: ${
      formatCount(tokens)
    } tokens, more than maxTokens 10: ask for it with a ` +
      'larger maxTokens, or in a lighter view ("outline", "summary"))',
  );
  // A view that fell back says why (here: custom with no slices), so the caller can ask again.
  const custom = await inProject(
    root,
    () => viewFilesTool({ files: [one], view: "custom" }, { root }),
  );
  assert.deepEqual(
    (custom.data.files as Array<{ view: string; notes?: string[] }>).map((f) => [f.view, f.notes]),
    [["summary", ["custom view without slices: fell back to summary"]]],
  );
  // The default holds all six (about 9,000 tokens).
  const all = await inProject(root, () => viewFilesTool({ files: ["src/**"] }, { root }));
  assert.ok(MAX_INLINE_TOKENS >= 9000);
  assert.ok((all.data.files as Array<{ shown: boolean }>).every((f) => f.shown));
  assert.doesNotMatch(all.built!, /not shown/);
});

Deno.test("build_context's data lists the first 20 budget steps and redactions, and counts the rest", async () => {
  const files: Record<string, string> = {};
  for (let f = 0; f < 30; f++) {
    files[`src/mod_${String(f).padStart(2, "0")}.py`] = `TOKEN = "ghp_${letters(33)}"\n\n` +
      Array.from({ length: 12 }, (_, i) => `def fn_${i}(a):\n    return a + ${i}\n`).join("\n");
  }
  const root = await makeProject(files);
  const out = await inProject(
    root,
    () => buildContextTool({ budget: 300, maxInlineTokens: 0 }, { root }),
  );
  const data = out.data as {
    manifest: string;
    budget: { steppedDown: unknown[]; moreSteppedDown?: number };
    warnings: string[];
    moreWarnings?: number;
  };
  const manifest = JSON.parse(await Deno.readTextFile(`${root}/${data.manifest}`));
  const steps = manifest.budget.steppedDown;
  assert.ok(steps.length > 20, `${steps.length} steps`);
  assert.deepEqual(data.budget.steppedDown, steps.slice(0, 20));
  assert.equal(data.budget.moreSteppedDown, steps.length - 20);
  const redactions = manifest.warnings.filter((w: string) => w.startsWith("Redacted a secret"));
  assert.equal(redactions.length, 30);
  assert.deepEqual(data.warnings, manifest.warnings.slice(0, 20));
  assert.equal(data.moreWarnings, manifest.warnings.length - 20);
  // A small project's lists are whole, with no count of more.
  const small = await inProject(
    root,
    () => buildContextTool({ paths: ["src/mod_00.py"] }, { root }),
  );
  assert.equal((small.data as { moreWarnings?: number }).moreWarnings, undefined);
  assert.equal((small.data as { warnings: string[] }).warnings.length, 1);
});

Deno.test("token_stats tells its progress as a build does, then the count of the blocks, in one count that only grows", async () => {
  const root = await makeProject(tree());
  const told: Array<[number, number, string]> = [];
  const out = await inProject(
    root,
    () =>
      tokenStatsTool({ build: true }, { root }, (done, total, m) => told.push([done, total, m])),
  );
  const blocks = (out.data as { sections: Array<{ blocks: number }> }).sections
    .reduce((n, s) => n + s.blocks, 0);
  assert.ok(told.some(([, , m]) => /^rendered 6 of 6 files/.test(m)), JSON.stringify(told));
  const last = told.at(-1)!;
  assert.equal(last[2], `counted the tokens of ${blocks} of ${blocks} blocks`);
  assert.equal(last[0], last[1]);
  for (let i = 1; i < told.length; i++) {
    assert.ok(told[i][1] >= told[i - 1][1], `the total went down: ${JSON.stringify(told)}`);
  }
});

Deno.test("view_files names the views lighter than the one asked for a file it cannot show", async () => {
  // Asked in outline, it said to ask in "outline" or "summary"; asked in summary, the same.
  const root = await makeProject(tree());
  const one = "src/mod_0.py";
  const hint = async (view: string) => {
    const out = await viewFilesTool({ files: [one], view, maxTokens: 1 }, { root });
    return out.built!.trimEnd().split(": ").at(-1)!;
  };
  assert.match(await hint("full"), /in a lighter view \("skeleton", "outline"\)\)$/);
  assert.match(await hint("skeleton"), /in a lighter view \("outline", "summary"\)\)$/);
  assert.match(await hint("outline"), /in a lighter view \("summary"\)\)$/);
  assert.equal(await hint("summary"), "ask for it with a larger maxTokens)");
  // Past maxTokens after a file shown: the lighter views come first there too.
  const after = async (view: string) => {
    const first = await viewFilesTool({ files: [one], view }, { root });
    const tokens = (first.data.files as Array<{ tokens: number }>)[0].tokens;
    const two = ["src/mod_0.py", "src/mod_1.py"];
    // Room for the first file and the reply's data, not for the second file (as large).
    const maxTokens = tokens + Math.min(300, tokens - 1);
    const out = await viewFilesTool({ files: two, view, maxTokens }, { root });
    return out.built!.trimEnd().split("with the files before it: ").at(-1)!;
  };
  assert.equal(
    await after("skeleton"),
    'ask for it in a lighter view ("outline", "summary"), alone, or with a larger maxTokens)',
  );
  assert.equal(
    await after("outline"),
    'ask for it in a lighter view ("summary"), alone, or with a larger maxTokens)',
  );
  assert.equal(await after("summary"), "ask for it alone, or with a larger maxTokens)");
});
