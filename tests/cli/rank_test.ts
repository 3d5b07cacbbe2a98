import assert from "node:assert/strict";
import { join } from "node:path";
import { git, gitInit, makeProject, REPO, runCliShared } from "../_helpers.ts";

// Built at run time so no scanner reading this file takes it for a real token.
const SECRET = ["ghp", "QuokkaZebraWombatNarwhalPlatypusOkapi"].join("_");

const PROJECT = {
  "slop.config.ts": `export default { exclude: ["src/excluded.py"] };\n`,
  ".gitignore": "ignored.py\n",
  "src/adapters.py": "class HTTPAdapter:\n    def send(self, request, timeout=None):\n" +
    "        return self.pool.urlopen(request, timeout=timeout)\n",
  "src/sessions.py": "from .adapters import HTTPAdapter\n\nclass Session:\n" +
    "    def request(self, method, url):\n        return HTTPAdapter().send(url)\n",
  "src/models.py": "class Response:\n    def json(self):\n        return {}\n",
  "src/config.py": `TOKEN = "${SECRET}"\n`,
  "src/excluded.py": "HTTPAdapter = None  # timeout send\n",
  "ignored.py": "HTTPAdapter = None  # timeout send\n",
  "README.md": "# Requests\n\nSend a request with a timeout.\n",
};

/** Every file under the project's `.slop`, with its size and modification time. */
async function stateFiles(root: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (dir: string, rel: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) await walk(path, `${rel}${entry.name}/`);
      else {
        const info = await Deno.stat(path);
        files.set(`${rel}${entry.name}`, `${info.size} ${info.mtime?.getTime()}`);
      }
    }
  };
  await walk(join(root, ".slop"), "");
  return files;
}

async function project(extra: Record<string, string> = {}): Promise<string> {
  const root = await makeProject({ ...PROJECT, ...extra });
  await gitInit(root);
  return root;
}

Deno.test("slop rank lists the files for a task, best first, each with its score and why", async () => {
  const root = await project();
  // A past commit whose message has the task's words: the history signal's reasons.
  await Deno.writeTextFile(join(root, "src/adapters.py"), PROJECT["src/adapters.py"] + "\n");
  await git(root, "commit", "-qam", "Pass the timeout on to urlopen");
  const run = await runCliShared(
    ["rank", "--task", "HTTPAdapter.send ignores the timeout", "--top", "2"],
    root,
  );
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.trimEnd().split("\n");
  assert.match(lines[0], /^1\. \d+\.\d{3} {2}src\/adapters\.py$/);
  assert.match(lines[1], /^ {3}\S/);
  assert.match(lines[1], /(^|, )term httpadapter \+\d+\.\d{3}(, |$)/);
  assert.match(lines[1], /, term timeout \+|^ {3}term timeout \+/);
  assert.match(lines[1], /, graph the task names HTTPAdapter, send \+/);
  assert.match(lines[1], /, co-change 1\.00 of the most changed file \+0\.200/);
  assert.match(lines[1], /, history timeout \+0\.100/);
  assert.match(lines[2], /^2\. \d+\.\d{3} {2}src\/sessions\.py$/);
  assert.match(lines[3], /graph linked from src\/adapters\.py \((HTTPAdapter|send|request)\) \+/);
  assert.match(lines.at(-1)!, /^\(\d+ more; --top 0 lists all\)$/);
});

Deno.test("slop rank --json is the same bytes on every run, and ranks what a build would show", async () => {
  const root = await project();
  // Files a build lists as skipped, never shown: a secrets file, a binary one, a FIFO.
  await Deno.writeTextFile(join(root, ".env"), "HTTPADAPTER_TIMEOUT=3\n");
  await Deno.writeFile(join(root, "timeout.bin"), new Uint8Array([0x74, 0, 0, 0, 0x73]));
  await new Deno.Command("mkfifo", { args: [join(root, "send_timeout")] }).output();
  const args = ["rank", "--task", "HTTPAdapter.send ignores the timeout", "--json", "--top", "0"];
  const first = await runCliShared(args, root);
  assert.equal(first.code, 0, first.stderr);
  assert.equal((await runCliShared(args, root)).stdout, first.stdout);
  // With the names a task build stored in its cache: the same bytes, and the cache only read.
  const built = await runCliShared(
    ["build", "--task", "HTTPAdapter.send ignores the timeout"],
    root,
  );
  assert.equal(built.code, 0, built.stderr);
  const state = await stateFiles(root);
  assert.ok([...state.keys()].some((p) => p.startsWith("cache/")), [...state.keys()].join(" "));
  assert.equal((await runCliShared(args, root)).stdout, first.stdout);
  assert.deepEqual(await stateFiles(root), state);
  const out = JSON.parse(first.stdout);
  assert.equal(out.task, "HTTPAdapter.send ignores the timeout");
  const paths = out.files.map((f: { path: string }) => f.path);
  assert.equal(paths[0], "src/adapters.py");
  // The config's exclude and .gitignore hold, as in a build.
  assert.ok(!paths.includes("src/excluded.py") && !paths.includes("ignored.py"), paths.join(" "));
  assert.ok(paths.includes("README.md") && paths.includes("src/models.py"));
  // What a build skips is not listed (they were, ranked by their paths' words).
  for (const skipped of [".env", "timeout.bin", "send_timeout"]) {
    assert.ok(!paths.includes(skipped), paths.join(" "));
  }
  for (const f of out.files) {
    assert.deepEqual(Object.keys(f), ["path", "score", "reasons"]);
    for (const r of f.reasons) assert.deepEqual(Object.keys(r), ["kind", "detail", "score"]);
  }
});

Deno.test("slop rank sees redacted text: a secret's value is never a term", async () => {
  const root = await project();
  const run = await runCliShared(
    ["rank", "--task", "quokka zebra wombat narwhal platypus okapi", "--json", "--top", "0"],
    root,
  );
  assert.equal(run.code, 0, run.stderr);
  const files = JSON.parse(run.stdout).files;
  assert.ok(!JSON.stringify(files).includes("quokka"), run.stdout);
  const config = files.find((f: { path: string }) => f.path === "src/config.py");
  // Only its commit counts (every file is in the one commit).
  assert.deepEqual(config.reasons.map((r: { kind: string }) => r.kind), ["co-change"]);
});

Deno.test("slop rank takes the task from a file and the weights from the config", async () => {
  const root = await project({
    "task.txt": "The Response json method\n",
    "slop.config.ts": `export default { rank: { weights: { path: 0, graph: 0, coChange: 0 } } };\n`,
  });
  const run = await runCliShared(["rank", "--task-file", "task.txt", "--json", "--top", "1"], root);
  assert.equal(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout);
  assert.equal(out.task, "The Response json method");
  assert.equal(out.files[0].path, "src/models.py");
  assert.ok(out.files[0].reasons.every((r: { kind: string }) => r.kind === "term"));
});

Deno.test("slop rank's errors name what is wrong: no task, an empty one, an unreadable file, a bad weight", async () => {
  const root = await project();
  const cases: [string[], RegExp][] = [
    [["rank"], /^slop: No task: pass --task TEXT or --task-file PATH\n$/],
    [["rank", "--task", "  "], /^slop: Invalid --task " {2}": the task is empty\n$/],
    [
      ["rank", "--task-file", "nope.txt"],
      /^slop: Cannot read the task file "nope\.txt" \(--task-file\): file not found\n$/,
    ],
    [
      ["rank", "--task", "a", "--task-file", "t.txt"],
      /^slop: Give the task with --task or with --task-file, not both\n$/,
    ],
    [["rank", "--task", "a", "--top", "x"], /^slop: Invalid --top "x": expected a whole number\n$/],
  ];
  for (const [args, expected] of cases) {
    const run = await runCliShared(args, root);
    assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    assert.match(run.stderr, expected);
    assert.equal(run.stdout, "");
  }
  await Deno.writeTextFile(join(root, "empty.txt"), "\n \n");
  const empty = await runCliShared(["rank", "--task-file", "empty.txt"], root);
  assert.equal(empty.code, 2);
  assert.match(empty.stderr, /^slop: The task file "empty\.txt" \(--task-file\) is empty\n$/);
  await Deno.writeTextFile(
    join(root, "slop.config.ts"),
    `export default { rank: { weights: { graph: -1 } } };\n`,
  );
  const bad = await runCliShared(["rank", "--task", "a"], root);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /"rank\.weights\.graph" must be at least 0, got -1/);
});

Deno.test("the task context page's slop rank sample is what slop rank prints, byte for byte", async () => {
  const page = await Deno.readTextFile(join(REPO, "docs/task_context.md"));
  const at = page.indexOf("the first command prints:\n\n```\n");
  assert.ok(at > 0, "the sample on docs/task_context.md");
  const start = page.indexOf("```\n", at) + 4;
  const sample = page.slice(start, page.indexOf("```\n", start));
  const root = await makeProject({
    "src/adapters.py": PROJECT["src/adapters.py"],
    "src/sessions.py": PROJECT["src/sessions.py"],
    "src/models.py": PROJECT["src/models.py"],
    "README.md": PROJECT["README.md"],
  });
  await gitInit(root);
  const run = await runCliShared(
    ["rank", "--task", "HTTPAdapter.send ignores the timeout", "--top", "2"],
    root,
  );
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, sample);
});
