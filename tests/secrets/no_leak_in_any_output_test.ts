import assert from "node:assert/strict";
import { basename, join, relative } from "node:path";
import { makeProject, runCliShared, tempDir } from "../_helpers.ts";
import { connect, texts } from "../mcp/_client.ts";
import { generateSamples, type Planted, plantedOf, Rand, realKeys, textOf } from "./_samples.ts";
import { renderPayload } from "../../cli/payload.ts";
import { pieces } from "./_adversarial.ts";
import { serverFiles } from "../../server/files.ts";
import { watchOnceWithStderr } from "../cli/_watch.ts";
import { png } from "../_images.ts";

/** Another seed: `SLOP_SECRETS_SEED=7 deno test -A tests/secrets/no_leak_in_any_output_test.ts`. */
const SEED = Number(Deno.env.get("SLOP_SECRETS_SEED") ?? 20261129);

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const DIGITS = "0123456789";

/** One fresh secret for each place a project can hold one (made from the seed at test time). */
function secrets(r: Rand): Record<string, string> {
  return {
    fileName: "ghp_" + r.chars(ALNUM, 36),
    dirName: "AKIA" + r.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16),
    screenshotName: "SG." + r.chars(ALNUM, 22) + "." + r.chars(ALNUM, 43),
    task: "sk-proj-" + r.chars(ALNUM, 40) + "T3BlbkFJ" + r.chars(ALNUM, 40),
    taskPassword: r.mixed(ALNUM, 8) + "-" + r.mixed(ALNUM, 8),
    commitMessage: "sk-ant-api03-" + r.chars(ALNUM, 60),
    commitAuthor: "glpat-" + r.chars(ALNUM, 20),
    knowledge: "sk_live_" + r.chars(ALNUM, 30),
    beads: `xoxb-${r.chars(DIGITS, 12)}-${r.chars(ALNUM, 24)}`,
    // A token across the cut of a long description (160 characters).
    beadsCut: `eyJhbGciOiJIUzI1NiJ9.eyJ${r.chars(ALNUM, 90)}.${r.chars(ALNUM, 43)}`,
    history: `xoxp-${r.chars(DIGITS, 12)}-${r.chars(ALNUM, 24)}`,
    skeletonConstant: "AIza" + r.chars(ALNUM, 35),
    presetText: "npm_" + r.chars(ALNUM, 36),
    notebookPassword: r.mixed(ALNUM, 6) + "#" + r.mixed(ALNUM, 8),
    envPassword: r.chars("abcdefghijklmnop", 6) + "-" + r.chars("abcdefghijklmnop", 6) +
      r.int(10, 99),
    dockerToken: r.mixed(ALNUM, 32),
    kubernetesPassword: r.mixed(ALNUM, 14) + "!",
    // A slice's tag and comment: the config's, the side file's (`slop slice add`), an MCP call's.
    configSliceTag: "sk_live_" + r.chars(ALNUM, 30),
    sideSliceComment: "glpat-" + r.chars(ALNUM, 20),
    mcpSliceComment: "xoxa-" + r.chars(DIGITS, 12) + "-" + r.chars(ALNUM, 24),
    // A file made while `slop watch` runs: its name in the rebuilt line.
    watchedName: "ghp_" + r.chars(ALNUM, 36),
  };
}

/** Every sample kind in `.env` syntax (a fresh value of each, made from `seed`): text and values. */
function envSample(seed: number, keys: string[]): { text: string; planted: Planted[] } {
  const file = generateSamples(seed, keys).find((f) => f.syntax === "env")!;
  return { text: textOf(file), planted: plantedOf([file]) };
}

/**
 * Kinds whose value is a secret only by the name, command or call around it (a password, 32 hex
 * digits, random letters): alone as a file's or a branch's name, nothing tells it from an id or a
 * hash, and docs/secrets.md says so. The other kinds have a shape of their own (a prefix).
 */
const NEEDS_ITS_NAME = new Set([
  "twilio-auth-token",
  "basic-auth-url",
  "bearer",
  "pass-name",
  "npm-auth",
  "tool-env-password",
  "bare-basic",
  "short-password-name",
  "jwk-private-key",
  "random-letters-key",
  "oracle-connect",
  "credential-call",
  "powershell-password",
  "sonar-login",
  "psexec-password",
  "short-token",
  "tool-option-password",
  "long-option-password",
  "stdin-password",
  "go-dsn",
  "signed-url",
  "curl-cookie",
  "positional-password",
  "user-token",
  "azure-devops-pat",
  "query-key",
  "composer-token",
]);

/** Where each entry of a `.env` sample starts (a PEM block's lines stay with their entry). */
const ENV_ENTRY = /\n(?=[A-Z][A-Z0-9_]*=)/;

/**
 * The values of a sample that a file's and a branch's name can hold as they are (no `/`, `.`,
 * blank or mark) and that have a shape of their own.
 */
function nameValues(sample: { planted: Planted[] }): Planted[] {
  return sample.planted.filter((p) =>
    /^[A-Za-z0-9_-]{8,200}$/.test(p.value) && !NEEDS_ITS_NAME.has(p.kind)
  );
}

/**
 * A value of every sample kind (`_samples.ts`) at each place a project can hold one: the files of
 * every syntax, a commit's message, branch and file names, the task, a knowledge file, history,
 * Beads issues, the providers' key variables and `slop payload`'s prompt. Each place has values
 * of its own (another seed), so a leak names the place it came from.
 */
async function everyKind(seed: number) {
  const keys = await realKeys(2);
  const files = generateSamples(seed, keys);
  const [commit, names, task, knowledge, history, beads, prompt] = [1, 2, 3, 4, 5, 6, 7].map((
    i,
  ) => envSample(seed + i, keys));
  const r = new Rand(seed + 8);
  const env = {
    ANTHROPIC_API_KEY: "sk-ant-api03-" + r.chars(ALNUM, 93) + "AA",
    OPENAI_API_KEY: "sk-proj-" + r.chars(ALNUM, 40) + "T3BlbkFJ" + r.chars(ALNUM, 40),
    GEMINI_API_KEY: "AIza" + r.chars(ALNUM, 35),
    DEEPSEEK_API_KEY: "sk-" + r.chars("0123456789abcdef", 32),
  };
  const planted: Array<[string, string]> = [
    ...plantedOf(files).map((p): [string, string] => [`${p.kind} (${p.syntax} file)`, p.value]),
    ...Object.entries({ commit, task, knowledge, history, beads, prompt }).flatMap((
      [place, sample],
    ) => sample.planted.map((p): [string, string] => [`${p.kind} (${place})`, p.value])),
    ...nameValues(names).map((p): [string, string] => [`${p.kind} (names)`, p.value]),
    ...Object.entries(env),
  ];
  return { files, commit, names, task, knowledge, history, beads, prompt, env, planted };
}

/** The project: each secret where the brief of an outside tester would put it. */
function tree(
  s: Record<string, string>,
  every: Awaited<ReturnType<typeof everyKind>>,
): Record<string, string | Uint8Array> {
  const beads = {
    id: "bd-1",
    title: "Rotate the bot token",
    description: `The old one was ${s.beads}`,
    status: "open",
    priority: 1,
    issue_type: "task",
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-01T00:00:00Z",
  };
  const cut = {
    ...beads,
    id: "bd-2",
    title: "Staging login",
    description:
      `Staging login works again with the token ${s.beadsCut} (rotate it after the demo)`,
  };
  const notebook = {
    cells: [{ cell_type: "code", metadata: {}, source: [`password = "${s.notebookPassword}"\n`] }],
    nbformat: 4,
  };
  // One Beads issue for each kind, its line of `.env` as the description.
  const issues = every.beads.text.split(ENV_ENTRY).map((line, i) =>
    JSON.stringify({ ...beads, id: `bd-k${i}`, title: `Key ${i}`, description: line })
  );
  const knowledge = every.knowledge.text.split(ENV_ENTRY).map((line) =>
    `- ${line} [from: chat, 2026-01-02]\n`
  );
  return {
    ...Object.fromEntries(every.files.map((f) => [f.path, textOf(f)])),
    ...Object.fromEntries(
      nameValues(every.names).map((p) => [`names/${p.value}.txt`, "x\n"]),
    ),
    "slop/knowledge/keys.md": knowledge.join(""),
    [`notes/${s.fileName}.md`]: "a note\n",
    [`${s.dirName}/readme.txt`]: "a folder\n",
    [`shots/${s.screenshotName}.png`]: png(2, 2),
    "slop/knowledge/facts.md": `- The payment key is ${s.knowledge} [from: chat, 2026-01-01]\n`,
    ".beads/issues.jsonl": [JSON.stringify(beads), JSON.stringify(cut), ...issues].join("\n") +
      "\n",
    "history.jsonl": JSON.stringify({ role: "User", content: `use ${s.history} for the bot` }) +
      "\n" + JSON.stringify({ role: "User", content: every.history.text }) + "\n",
    "src/keys.py": `API_KEY = "${s.skeletonConstant}"\n\n\ndef area(w, h):\n    return w * h\n`,
    "src/calc.py": "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n",
    "analysis.ipynb": JSON.stringify(notebook, null, 1) + "\n",
    "config/app.env.example": `DB_USER=app\nDB_PASSWORD=${s.envPassword}\n`,
    "Dockerfile": `FROM alpine\nENV API_TOKEN ${s.dockerToken}\n`,
    "k8s/secret.yaml": `apiVersion: v1\nkind: Secret\ndata:\n  password: ${
      btoa(s.kubernetesPassword)
    }\n`,
    "slop.config.ts": "export default " + JSON.stringify({
      // A literal path is not listed first: it is checked too.
      files: ["**", `notes/${s.fileName}.md`, { path: "src/keys.py", view: "skeleton" }, {
        path: "src/calc.py",
        view: "custom",
        slices: [{ startLine: 1, endLine: 2, tag: `add ${s.configSliceTag}` }],
      }],
      history: "history.jsonl",
      screenshots: ["shots/*.png"],
      presets: {
        deploy: {
          files: ["src/**"],
          description: `deploy with ${s.presetText}`,
          task: `publish with ${s.presetText}`,
        },
      },
    }) + ";\n",
  };
}

/** Every file under `root` that is not an input (document, manifest, caches, memories, logs). */
async function written(root: string, inputs: Set<string>): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.name === ".git") continue;
      if (entry.isDirectory) await walk(path);
      else if (entry.isFile && !inputs.has(relative(root, path))) {
        // A running build server renames its temp files as the walk goes: one gone is skipped
        // (what it held is in the file it became, read by this walk or the one after the stop).
        const bytes = await Deno.readFile(path).catch((e) => {
          if (e instanceof Deno.errors.NotFound) return undefined;
          throw e;
        });
        if (bytes) out.push([relative(root, path), new TextDecoder().decode(bytes)]);
      }
    }
  };
  await walk(root);
  return out;
}

/**
 * Where any form of a planted value shows: a piece of it raw, of its base64 (at each of its three
 * alignments) or JSON-escaped. A piece that two values share (a provider's prefix, `sk-ant-api03`)
 * names neither and is left out: each value has pieces of its own. The pieces are indexed by
 * their first 8 characters, so each output is read once, whatever the number of values.
 */
function leaks(outputs: Array<[string, string]>, planted: Array<[string, string]>): string[] {
  const owner = new Map<string, string | null>();
  for (const [label, value] of planted) {
    const forms = [
      ...pieces(value),
      ...[0, 1, 2].flatMap((i) => pieces(btoa("ab".slice(0, i) + value).slice(4, -4))),
      ...pieces(JSON.stringify(value).slice(1, -1)),
    ];
    for (const form of forms) {
      owner.set(form, owner.has(form) && owner.get(form) !== label ? null : label);
    }
  }
  const index = new Map<string, Array<[string, string]>>();
  for (const [form, label] of owner) {
    if (label === null) continue;
    const head = form.slice(0, 8);
    if (!index.has(head)) index.set(head, []);
    index.get(head)!.push([form, label]);
  }
  const found = new Set<string>();
  for (const [name, text] of outputs) {
    for (let i = 0; i + 8 <= text.length; i++) {
      for (const [form, label] of index.get(text.slice(i, i + 8)) ?? []) {
        if (text.startsWith(form, i)) found.add(`${label} in ${name}`);
      }
    }
  }
  return [...found];
}

/**
 * Ask the MCP server for a build, views (one with a slice of its own), stats and an explanation;
 * their answers go to `outputs`.
 */
async function mcpCalls(
  root: string,
  { task, sliceComment }: { task: string; sliceComment: string },
  outputs: Array<[string, string]>,
): Promise<{ code: number; stderr: string }> {
  const session = await connect(root);
  try {
    const calls: Array<[string, Record<string, unknown>]> = [
      ["view_files", { files: ["src/keys.py", "analysis.ipynb"], view: "skeleton" }],
      ["view_files", {
        files: ["src/calc.py"],
        view: "custom",
        slices: [{ startLine: 5, endLine: 6, comment: `sub ${sliceComment}` }],
      }],
      ["token_stats", {}],
      ["check_prefix", {}],
      ["explain", {}],
      ["build_context", { task, maxInlineTokens: 100_000 }],
    ];
    for (const [name, args] of calls) {
      const result = await session.client.callTool({ name, arguments: args });
      outputs.push([`MCP ${name}`, JSON.stringify(result) + texts(result).join("\n")]);
    }
    outputs.push(["MCP stderr", session.stderr()]);
  } finally {
    await session.close();
  }
  return { code: 0, stderr: "" };
}

async function git(root: string, s: Record<string, string>, ...args: string[]): Promise<void> {
  const env = {
    GIT_AUTHOR_NAME: `dev ${s.commitAuthor}`,
    GIT_AUTHOR_EMAIL: "dev@example.com",
    GIT_COMMITTER_NAME: "dev",
    GIT_COMMITTER_EMAIL: "dev@example.com",
  };
  const out = await new Deno.Command("git", { args, cwd: root, env }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
}

Deno.test("no secret of the project reaches any output, message or file slop writes", async () => {
  const s = secrets(new Rand(SEED));
  const every = await everyKind(SEED);
  const files = tree(s, every);
  const root = await makeProject(files);
  await git(root, s, "init", "-q");
  await git(root, s, "add", "-A");
  await git(root, s, "commit", "-q", "-m", `Add the service (key ${s.commitMessage})`);
  // A commit whose message holds every kind (history ranking reads it), and branches named
  // after them, one of them checked out.
  await Deno.writeTextFile(join(root, "src/calc.py"), "\n# rotated\n", { append: true });
  await git(root, s, "commit", "-q", "-am", `Rotate the keys\n\n${every.commit.text}`);
  const branches = nameValues(every.names).map((p) => p.value);
  for (const v of branches) await git(root, s, "branch", `keys/${v}`);
  await git(root, s, "checkout", "-q", `keys/${branches[0]}`);
  const task = `Fix the login; the key ${s.task} and DB_PASSWORD=${s.taskPassword} work\n` +
    every.task.text;

  const outputs: Array<[string, string]> = [];
  // Build servers in a folder of this test's own; CI emptied, since on a CI machine (CI=true)
  // `--server` starts no server and there would be no server log to read.
  const runtime = await tempDir({ prefix: "slop_servers_" });
  const env = { XDG_RUNTIME_DIR: runtime, CI: "", ...every.env };
  const run = async (...args: string[]) => {
    const r = await runCliShared(args, root, env);
    outputs.push([`slop ${args[0]} (stdout and stderr)`, r.stdout + r.stderr]);
    return r;
  };
  // The digest slop writes from the knowledge files (a key written there by hand).
  assert.equal((await run("knowledge", "digest")).code, 0);
  // A slice's anchors quote the lines around it (the key is on the line above).
  assert.equal((await run("slice", "add", "src/keys.py:4-5")).code, 0);
  const comment = `rotate ${s.sideSliceComment}`;
  assert.equal((await run("slice", "add", "src/calc.py:5-6", "--comment", comment)).code, 0);
  assert.equal((await run("build")).code, 0);
  assert.equal((await run("build", "--task", task)).code, 0);
  // The rest side by side (they read what the two builds wrote; the MCP build writes a third).
  const [stdout, ...reads] = await Promise.all([
    run("build", "--stdout", "--json", "--task", task),
    run("rank", "--json", "--task", task),
    run("explain", "--json"),
    run("stats", "--json"),
    run("report", "--stdout"),
    run("payload", "--preset", "deploy", "--prompt", every.prompt.text),
    run("build", "--fail-on-secret", "--stdout"),
    mcpCalls(root, { task, sliceComment: s.mcpSliceComment }, outputs),
  ]);
  assert.equal(stdout.code, 0, stdout.stderr);
  assert.deepEqual(reads.map((r) => r.code), [0, 0, 0, 0, 0, 1, 0]);
  // The other providers' request bodies, with the question (in-process: the CLI's is above).
  for (const provider of ["openai", "gemini", "deepseek"]) {
    const config = join(root, "slop.config.ts");
    const body = await renderPayload({ config, provider, prompt: every.prompt.text });
    outputs.push([`slop payload --provider ${provider}`, JSON.stringify(body)]);
  }
  // What the summary says: the secret's path and rule, never its value.
  // (the first 20 findings and a count: the manifest lists every one)
  const manifest = JSON.parse(stdout.stdout).manifest;
  assert.ok(
    manifest.warnings.some((w: string) => /Redacted a secret in "Dockerfile" line 2/.test(w)),
  );
  assert.match(stdout.stderr, /Redacted a secret in "[^"]+" line \d+ \([a-z0-9-]+\)/);
  assert.match(stdout.stderr, /\.\.\. and [\d,]+ more secrets redacted/);
  assert.match(
    stdout.stderr,
    /Left out a file whose path holds a secret: "notes\/\[REDACTED:github\]\.md"/,
  );
  // The build server: its builds and the files it keeps while it runs.
  try {
    assert.equal((await run("build", "--server", "--task", task)).code, 0);
    outputs.push(...await written(root, new Set(Object.keys(files))));
  } finally {
    await run("server", "stop");
  }
  // `slop watch` names the one file that changed: here one whose name holds a secret.
  const watched = await watchOnceWithStderr(root, async () => {
    await Deno.writeTextFile(join(root, "src", `${s.watchedName}.txt`), "made while watching\n");
  });
  outputs.push(["slop watch (stdout and stderr)", watched.lines.join("\n") + watched.stderr]);
  assert.ok(
    watched.lines.some((l) => l.startsWith("slop: src/[REDACTED:github].txt changed: built")),
    watched.lines.join("\n"),
  );
  outputs.push(...await written(root, new Set(Object.keys(files))));
  // The server's log, in the user's runtime folder (not under the project).
  const log = join(runtime, "slop", basename(serverFiles({ cwd: root }).log));
  outputs.push(["the build server's log", await Deno.readTextFile(log)]);

  const names = outputs.map(([name]) => name);
  for (
    const expected of [
      /^\.slop\/out\/context_\d+\.md$/,
      /^\.slop\/cache\//,
      /^\.slop\/order\//,
      /^slop\/knowledge\/digest\.md$/,
      /^slop\/slices\.toml$/,
    ]
  ) {
    assert.ok(names.some((n) => expected.test(n)), `${expected} written: ${names}`);
  }
  // The document is there, with the inputs' other text, and each value replaced.
  const document = JSON.parse(stdout.stdout).document;
  assert.match(document, /API_KEY = "\[REDACTED:google-api-key\]"/);
  assert.match(document, /ENV API_TOKEN \[REDACTED:named-secret\]/);
  assert.match(document, /DB_PASSWORD=\[REDACTED:password\]/);
  // The slices' labels, each with its value replaced.
  assert.match(document, /\[Slice: add \[REDACTED:stripe\]\]/);
  assert.match(document, /\(rotate \[REDACTED:gitlab\]\)/);
  // Every planted value (every sample kind at every place), in every output and file.
  assert.deepEqual(leaks(outputs, [...Object.entries(s), ...every.planted]), []);
});
