import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { redactText } from "../../pipeline/secrets.ts";
import { basicScrubber } from "../../knowledge/_secrets.ts";
import { LLM_TEST_KEY, LLM_TEST_KEY_ENV, startLlmServer } from "../_llm_server.ts";
import { makeProject, runCliShared } from "../_helpers.ts";
import {
  generateSamples,
  KINDS,
  piecesOf,
  type Planted,
  plantedOf,
  realKeys,
  redactedPattern,
  SYNTAXES,
  textOf,
} from "./_samples.ts";

/** Another seed: `SLOP_SECRETS_SEED=7 deno test -A tests/secrets/generated_secrets_test.ts`. */
const SEED = Number(Deno.env.get("SLOP_SECRETS_SEED") ?? 20261128);

/** The first planted value whose 12-character pieces `text` holds, as `kind (syntax)`. */
function leaked(text: string, planted: Planted[]): string | undefined {
  for (const p of planted) {
    const piece = piecesOf(p.value).find((piece) => text.includes(piece));
    if (piece) return `${p.kind} (${p.syntax}): ${JSON.stringify(piece)}`;
  }
  return undefined;
}

Deno.test("redactText() replaces exactly the value of every kind in every syntax (5 seeds)", async () => {
  const keys = await realKeys(3);
  for (let seed = SEED; seed < SEED + 5; seed++) {
    // Half of the seeds with private keys of random bytes, half with real ones.
    const files = generateSamples(seed, seed % 2 ? keys : []);
    assert.equal(files.length, SYNTAXES.length);
    for (const file of files) {
      const { text, findings } = await redactText(textOf(file), file.path);
      const planted = plantedOf([file]);
      assert.equal(planted.length, KINDS.length);
      assert.equal(leaked(text, planted), undefined, `seed ${seed}, ${file.path}`);
      // Key names, quotes, indents and every other character stay as they were.
      assert.match(text, redactedPattern(file), `seed ${seed}, ${file.path}`);
      // and the lines: a value over several lines is a marker on each (none joined, none lost)
      const lines = (t: string) => t.split(/\r\n|[\n\r]/).length;
      assert.equal(lines(text), lines(textOf(file)), `seed ${seed}, ${file.path}: its lines`);
      assert.equal(findings.length, planted.length, `seed ${seed}, ${file.path}: one each`);
    }
  }
});

Deno.test("the knowledge scrubber runs the same table: no piece of any kind in any syntax is left", async () => {
  const scrub = basicScrubber();
  const files = generateSamples(SEED + 1, await realKeys(2));
  for (const file of files) {
    const { text, found } = scrub(textOf(file));
    assert.equal(leaked(text, plantedOf([file])), undefined, file.path);
    assert.ok(found.includes("aws-access-key-id") && found.includes("github-token"), file.path);
  }
});

Deno.test("no piece of a generated secret reaches any output of a real build, harvest or report", async () => {
  const files = generateSamples(SEED, await realKeys(2));
  const planted = plantedOf(files);
  const oneLine = planted.filter((p) => !p.value.includes("\n") && !p.value.includes("\\n"));
  const byKind = (kind: string) => oneLine.find((p) => p.kind === kind)!.value;
  // A model that repeats what it was told: knowledge lines must be scrubbed after it answers.
  const server = startLlmServer({
    reply: (request) =>
      request.prompt.includes("## Conversation")
        ? JSON.stringify({
          facts: [{ statement: `The deploy key is ${byKind("github-classic")}` }],
          playbooks: [{ name: "Pay", steps: `export STRIPE_KEY=${byKind("stripe")} -> charge` }],
        })
        : `Summary: ${request.prompt.slice(0, 400)}`,
  });
  try {
    // A conversation that pastes the `.env` file's lines (a bare AWS secret has no shape: its
    // name is what tells it apart).
    const env = files.find((f) => f.syntax === "env")!.segments;
    const lines = env.flatMap((s, i) =>
      typeof s === "string" || s.value.includes("\\n") ? [] : [
        `${(env[i - 1] as string).split("\n").pop()}${s.value}${(env[i + 1] as string).trimEnd()}`,
      ]
    );
    const chat = lines.map((line, i) =>
      JSON.stringify({ role: i % 2 ? "AI" : "User", content: `set ${line} in the shell` })
    ).join("\n") + "\n";
    const tree: Record<string, string> = {
      "chats/2026-11-28-keys.jsonl": chat,
      "history.jsonl": chat,
    };
    for (const file of files) {
      tree[file.path] = textOf(file);
    }
    const summarized = files[0].path;
    tree["slop.config.ts"] = "export default " + JSON.stringify({
      files: files.map((f) =>
        f.path === summarized ? { path: f.path, view: "llm_summary" } : f.path
      ),
      history: "history.jsonl",
      provider: { ...server.provider("anthropic"), model: "claude-sonnet-4-5" },
      knowledge: { conversations: ["chats/*.jsonl"] },
    }) + ";\n";
    const root = await makeProject(tree);
    const keys = { [LLM_TEST_KEY_ENV]: LLM_TEST_KEY };
    const build = await runCliShared(["build"], root, keys);
    assert.equal(build.code, 0, build.stderr);
    const report = await runCliShared(["report", "--stdout"], root, keys);
    assert.equal(report.code, 0, report.stderr);
    const harvest = await runCliShared(["knowledge", "harvest", "--apply"], root, keys);
    assert.equal(harvest.code, 0, harvest.stderr);
    assert.ok(server.requests.length >= 2, "a summary and a harvest were asked for");

    // Every file the runs wrote (document, manifest, payloads, cache, knowledge, logs), what they
    // printed and what they sent.
    const outputs: Array<[string, string]> = [
      ["build stdout", build.stdout],
      ["build stderr", build.stderr],
      ["report", report.stdout + report.stderr],
      ["harvest output", harvest.stdout + harvest.stderr],
      ["requests", JSON.stringify(server.requests)],
    ];
    const inputs = new Set(Object.keys(tree));
    const walk = async (dir: string) => {
      for await (const entry of Deno.readDir(dir)) {
        const path = join(dir, entry.name);
        if (entry.isDirectory) {
          await walk(path);
        } else if (entry.isFile && !inputs.has(relative(root, path))) {
          outputs.push([relative(root, path), new TextDecoder().decode(await Deno.readFile(path))]);
        }
      }
    };
    await walk(root);
    const written = outputs.map(([name]) =>
      name
    );
    for (const expected of [/^\.slop\/out\/context_001\.md$/, /^\.slop\/out\/context_001\.json$/]) {
      assert.ok(written.some((name) => expected.test(name)), `${expected} written: ${written}`);
    }
    assert.ok(written.some((name) => name.startsWith(".slop/cache")), "the cache was written");
    assert.ok(written.some((name) => name.startsWith("slop/knowledge/")), "knowledge written");
    for (const [name, text] of outputs) {
      assert.equal(leaked(text, planted), undefined, `${name} holds a piece of a secret`);
    }
    // The redaction is exact: each file shown whole is its text with only the values replaced.
    const document = await Deno.readTextFile(join(root, ".slop/out/context_001.md"));
    for (const file of files.filter((f) => f.path !== summarized)) {
      const pattern = redactedPattern(file);
      assert.match(document, new RegExp(pattern.source.slice(1, -1)), file.path);
    }
    const facts = await Deno.readTextFile(join(root, "slop/knowledge/facts.md"));
    assert.match(facts, /The deploy key is \[REDACTED:github-token\]/);
  } finally {
    await server.close();
  }
});
