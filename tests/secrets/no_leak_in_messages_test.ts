// Errors and warnings quote what they were given (a flag's value, a config value of the wrong
// type, an MCP call's arguments, a provider's HTTP body), and where a text is cut for a message
// or a section, the cut can fall inside a key: none of them may show a key.
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, runCliShared, tempDir } from "../_helpers.ts";
import { connect, texts } from "../mcp/_client.ts";
import { startLlmServer } from "../_llm_server.ts";
import { Rand } from "./_samples.ts";
import { nameFor, pieces, secretsOf } from "./_adversarial.ts";
import { quote } from "../../pipeline/schema.ts";
import { redactSync } from "../../pipeline/secrets.ts";
import { cutOutsideSecrets } from "../../pipeline/_scan.ts";
import { trimDescription } from "../../plugins/sections/beads.ts";
import { httpClient } from "../../plugins/providers/_http.ts";
import { serveProject } from "../../server/serve.ts";
import { loadConfig } from "../../pipeline/config.ts";

/** Another seed: `SLOP_SECRETS_SEED=7 deno test -A tests/secrets/no_leak_in_messages_test.ts`. */
const SEED = Number(Deno.env.get("SLOP_SECRETS_SEED") ?? 20261129);

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** The secrets of every kind that fit on one line, each written `NAME=value` under its name. */
const SECRETS = secretsOf(SEED).filter((s) => !s.block && s.value.length < 400)
  .map((s) => ({ ...s, value: `${nameFor(s.kind)}=${s.value}` }));

/** The secrets whose pieces show in `text`, by kind. */
function shown(text: string, secrets: Array<{ kind: string; hidden: string }>): string[] {
  return secrets.filter((s) => pieces(s.hidden).some((p) => text.includes(p)))
    .map((s) => s.kind);
}

/** Offsets that put a secret across `at`: each of its first 40 characters, then every 7th. */
function across(at: number, length: number): number[] {
  const out: number[] = [];
  for (let i = 1; i < length; i += i < 40 ? 1 : 7) if (at - i >= 0) out.push(at - i);
  return out;
}

Deno.test("a config value an error quotes is redacted before it is cut to 100 characters", () => {
  const found: string[] = [];
  for (const s of SECRETS) {
    for (const pad of across(100, s.value.length)) {
      const message = `"budget" must be an object, got the string ${
        quote(`${"x".repeat(pad)} ${s.value}`)
      }`;
      for (const kind of shown(redactSync(message).text, [s])) found.push(`${kind} at ${pad}`);
    }
  }
  assert.deepEqual(found, []);
});

Deno.test("a Beads description is not cut inside a secret, nor right after one", () => {
  const found: string[] = [];
  for (const s of SECRETS) {
    for (const pad of across(160, s.value.length)) {
      for (const sep of [" ", ".", "; "]) {
        const description = `${"x".repeat(pad)}${sep}${s.value} and more words after it`;
        const cut = trimDescription(description, 160, { cut: cutOutsideSecrets });
        assert.ok(cut.length <= 163, cut);
        for (const kind of shown(redactSync(cut).text, [s])) found.push(`${kind} at ${pad}`);
      }
    }
  }
  assert.deepEqual(found, []);
  // Text with no secret is cut as before: at the last blank, then `...`.
  assert.equal(trimDescription("one  two\nthree four", 12), "one two...");
  // The config's own rules are kept whole too.
  const rules = { "acme-id": "ACME-[0-9]{8}" };
  const cut = (text: string, at: number, options?: { mark?: string }) =>
    cutOutsideSecrets(text, at, { ...options, rules });
  assert.equal(
    trimDescription(`${"x".repeat(14)}ACME-12345678`, 20, { cut }),
    `${"x".repeat(14)}...`,
  );
});

Deno.test("a provider's HTTP error body that quotes the key is redacted before it is cut", async () => {
  const r = new Rand(SEED);
  const key = "sk-proj-" + r.chars(ALNUM, 40) + "T3BlbkFJ" + r.chars(ALNUM, 40);
  const server = startLlmServer();
  const http = httpClient("slop:test", { retries: 0 });
  const found: string[] = [];
  try {
    // The key the request sent, quoted across the 300th character of the body (and whole).
    for (const pad of [300 - 80, 300 - 40, 300 - 9, 10]) {
      server.enqueue({ status: 401, raw: `${"x".repeat(pad)} "${key}" is not a valid key` });
      const error = await http.post(
        { url: `${server.url}/v1/chat/completions`, headers: { authorization: key }, body: {} },
        [key],
      ).then(() => "", (e: Error) => e.message);
      assert.match(error, /failed with HTTP 401/);
      if (shown(error, [{ kind: "key", hidden: key }]).length) found.push(`key at ${pad}`);
    }
  } finally {
    await server.close();
  }
  assert.deepEqual(found, []);
});

Deno.test("the CLI's errors redact a key given as a flag's value or a config value", async () => {
  const r = new Rand(SEED + 1);
  const token = "ghp_" + r.chars(ALNUM, 36);
  const key = "sk-proj-" + r.chars(ALNUM, 40) + "T3BlbkFJ" + r.chars(ALNUM, 40);
  const src = { "src/a.py": "def f():\n    return 1\n", [`src/${token}.py`]: "x = 1\n" };
  const [good, thrown, typed] = await Promise.all([
    makeProject({ ...src, "slop.config.ts": 'export default { files: ["src/**"] };\n' }),
    // A config that fails as it loads, with the key in its error.
    makeProject({
      ...src,
      "slop.config.ts": `const key = "${key}";\nthrow new Error("no access with " + key);\n`,
    }),
    // A key in a value of the wrong type, across the 100th character of the quoted value.
    makeProject({
      ...src,
      "slop.config.ts": `export default { files: ["src/**"], budget: "${
        "x".repeat(90)
      } ${key}" };\n`,
    }),
  ]);
  const runs = await Promise.all([
    runCliShared(["stats", "--top", token], good),
    runCliShared(["build", `--frobnicate=${token}`], good),
    runCliShared(["server", "start", "--idle", token], good),
    runCliShared(["report"], thrown),
    runCliShared(["explain"], typed),
    // A path that holds a key is not recorded in the side file (builds leave the file out).
    runCliShared(["slice", "add", `src/${token}.py:1-1`], good),
  ]);
  const secrets = [{ kind: "token", hidden: token }, { kind: "key", hidden: key }];
  const found = runs.flatMap((run, i) =>
    shown(run.stdout + run.stderr, secrets).map((kind) => `${kind} in run ${i}`)
  );
  assert.deepEqual(found, []);
  // Each still says what is wrong and where.
  assert.deepEqual(runs.map((run) => run.code !== 0), runs.map(() => true));
  assert.match(runs[0].stderr, /Invalid --top "\[REDACTED:github\]"/);
  assert.match(runs[1].stderr, /Unknown option "--frobnicate=\[REDACTED:github\]"/);
  assert.match(runs[3].stderr, /Cannot load the config: no access with \[REDACTED:openai-key\]/);
  assert.match(runs[4].stderr, /"budget" must be an object, got the string "x+ \[REDACTED/);
  assert.match(
    runs[5].stderr,
    /Cannot slice "src\/\[REDACTED:github\]\.py": its path holds a secret/,
  );
  await assert.rejects(Deno.stat(join(good, "slop", "slices.toml")), Deno.errors.NotFound);
});

Deno.test("slop mcp's argument errors, the SDK's own included, redact a key", async () => {
  const r = new Rand(SEED + 2);
  const token = "ghp_" + r.chars(ALNUM, 36);
  const root = await makeProject({
    "src/a.py": "x = 1\n",
    "slop.config.ts": 'export default { files: ["src/**"] };\n',
  });
  const session = await connect(root);
  const replies: string[] = [];
  try {
    const calls: Array<[string, Record<string, unknown>]> = [
      ["build_context", { strategy: token }],
      ["build_context", { budget: token }],
      ["build_context", { [token]: 1 }],
      ["view_files", { files: ["src/a.py"], view: token }],
      [token, {}],
    ];
    for (const [name, args] of calls) {
      const result = await session.client.callTool({ name, arguments: args });
      assert.equal(result.isError, true);
      replies.push(JSON.stringify(result) + texts(result).join("\n"));
    }
    replies.push(session.stderr());
  } finally {
    await session.close();
  }
  assert.deepEqual(shown(replies.join("\n"), [{ kind: "token", hidden: token }]), []);
  assert.match(replies[2], /Unknown argument \\"\[REDACTED:github\]\\"/);
});

Deno.test({
  name: "the build server's log file redacts a key an error's stack quotes",
  // A detached server ignores the terminal's signals for the rest of the process.
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const r = new Rand(SEED + 3);
    const token = "ghp_" + r.chars(ALNUM, 36);
    const dir = await tempDir({ prefix: "slop_server_log_" });
    const at = (ext: string) => join(dir, `s.${ext}`);
    const files = {
      dir,
      id: "s",
      socket: at("sock"),
      lock: at("lock"),
      log: at("log"),
      info: at("json"),
    };
    const code = await serveProject(files, {
      idleMs: 1000,
      detached: true,
      load: () => Promise.reject(new Error(`Cannot load the build: bad token ${token}`)),
    });
    assert.equal(code, 1);
    const log = await Deno.readTextFile(files.log);
    assert.match(
      log,
      /stopped by an error: Error: Cannot load the build: bad token \[REDACTED:github\]/,
    );
    assert.deepEqual(shown(log, [{ kind: "token", hidden: token }]), []);
  },
});

Deno.test("a persona or preset named with a secret is a config error, not a lock file's name", async () => {
  const r = new Rand(11);
  const persona = "ghp_" +
    r.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 36);
  const preset = "sk_live_" +
    r.chars("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789", 30);
  const root = await makeProject({
    "src/a.py": "x = 1\n",
    "slop.config.ts": "export default " + JSON.stringify({
      files: ["src/**"],
      personas: { [persona]: { tier: 3 }, worker: { tier: 3 } },
      presets: { [preset]: { files: ["src/**"] } },
    }) + ";\n",
  });
  const error = await loadConfig({ config: join(root, "slop.config.ts"), persona: "worker" })
    .then(() => undefined, (e: Error) => e);
  assert.ok(error, "loadConfig must fail");
  assert.match(error.message, /"personas\.\[REDACTED:github\]": a persona's name holds a secret/);
  assert.match(error.message, /"presets\.\[REDACTED:stripe\]": a preset's name holds a secret/);
  assert.ok(!error.message.includes(persona) && !error.message.includes(preset), error.message);
  // Nothing was written beside the config: no `slop.<name>.lock`.
  assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name).sort(), [
    "slop.config.ts",
    "src",
  ]);
});
