import assert from "node:assert/strict";
import { join } from "node:path";
import { existsSync } from "node:fs";
import { git, gitInit, makeProject, REPO, runCliShared, tempDir } from "../_helpers.ts";
import { outputLines, summaryMarkdown } from "../../ci/action.ts";
import { annotationLines } from "../../ci/_annotations.ts";
import type { LockDiff } from "../../pipeline/lock.ts";

/** What one run of ci/action.ts left: exit code, job summary, outputs, log. */
interface ActionRun {
  code: number;
  summary: string;
  outputs: Record<string, string>;
  stderr: string;
  /** The workflow commands (annotations) the step printed. */
  stdout: string;
}

/** Run `ci/action.ts` in `cwd` as the action's step does, with GitHub's files in a temp folder. */
async function runAction(cwd: string, inputs: Record<string, string> = {}): Promise<ActionRun> {
  const github = await tempDir({ prefix: "slop_github_" });
  const summaryFile = join(github, "step_summary.md");
  const outputFile = join(github, "output.txt");
  // GitHub creates both files empty before the step runs; the step appends.
  await Deno.writeTextFile(summaryFile, "");
  await Deno.writeTextFile(outputFile, "");
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", join(REPO, "ci/action.ts")],
    cwd,
    env: {
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_OUTPUT: outputFile,
      RUNNER_TEMP: github,
      GITHUB_ACTIONS: "true",
      GITHUB_WORKSPACE: cwd,
      INPUT_CONFIG: "",
      INPUT_PERSONA: "",
      INPUT_PRESET: "",
      INPUT_MAX_INVALIDATED: "",
      INPUT_REPORT_NAME: "slop-report",
      ...inputs,
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const outputs: Record<string, string> = {};
  for (const line of (await Deno.readTextFile(outputFile)).split("\n").filter(Boolean)) {
    const eq = line.indexOf("=");
    assert.ok(eq > 0, `one name=value per line: ${line}`);
    outputs[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return {
    code: out.code,
    summary: await Deno.readTextFile(summaryFile),
    outputs,
    stderr: new TextDecoder().decode(out.stderr),
    stdout: new TextDecoder().decode(out.stdout),
  };
}

/** A git repository with a pinned prefix (slop.lock committed). */
async function pinnedRepository(): Promise<string> {
  const root = await makeProject({
    "intro.md": "# Intro\n\nWhat this project is.\n",
    "guide.md": "# Guide\n\n" + "Step by step, each step explained at length. ".repeat(60) + "\n",
    "notes.md": "# Notes\n\nA few notes.\n",
  });
  await gitInit(root);
  const pin = await runCliShared(["check", "--update"], root);
  assert.equal(pin.code, 0, pin.stderr);
  await git(root, "add", "slop.lock");
  await git(root, "commit", "-q", "-m", "pin the stable prefix");
  return root;
}

/** The report the action wrote for the artifact is a whole HTML page. */
function assertReport(run: ActionRun): void {
  assert.ok(run.outputs.report.endsWith("/slop-report/report.html"), run.outputs.report);
  const html = Deno.readTextFileSync(run.outputs.report);
  assert.match(html, /^<!doctype html>/i);
  assert.match(html, /<\/html>\n?$/);
}

Deno.test("the action passes on the pinned commit and fails on a drifting one, with the summary table and outputs", async () => {
  const root = await pinnedRepository();
  const before = await runAction(root, { INPUT_MAX_INVALIDATED: "5%" });
  assert.equal(before.code, 0, before.stderr);
  assert.equal(
    before.summary,
    "### slop check\n\n| | |\n| --- | --- |\n" +
      "| Lock | `slop.lock` |\n" +
      "| Result | pass: the stable prefix matches the lock |\n" +
      "| Stable prefix | 2,866 bytes, 649 o200k tokens |\n",
  );
  assert.deepEqual(Object.keys(before.outputs), [
    "status",
    "first-divergence",
    "invalidated-tokens",
    "invalidated-share",
    "cost",
    "report",
  ]);
  assert.equal(before.outputs.status, "match");
  assert.equal(before.outputs["first-divergence"], "");
  assert.equal(before.stdout, "", "no annotation on a match");
  assertReport(before);

  // The drifting commit: the intro, early in the prefix, changes.
  await Deno.writeTextFile(join(root, "intro.md"), "# Intro\n\nWhat this project is, and why.\n");
  await git(root, "commit", "-q", "-am", "reword the intro");
  const after = await runAction(root, { INPUT_MAX_INVALIDATED: "5%" });
  assert.equal(after.code, 1, after.stderr);
  assert.equal(
    after.summary,
    "### slop check\n\n| | |\n| --- | --- |\n" +
      "| Lock | `slop.lock` |\n" +
      "| Result | fail: the stable prefix drifted beyond `--max-invalidated 5%` |\n" +
      "| First divergent block | #3 `files:intro.md` (section files, file `intro.md`) |\n" +
      "| What changed | content changed (62 -> 71 bytes, now block #4) |\n" +
      "| Byte offset | 2,751 |\n" +
      "| Invalidated tokens | 33 of 649 o200k prefix tokens (5.1%) |\n" +
      "| All differences | 1 changed, 0 added, 0 removed, 0 moved |\n" +
      "| Re-pin | `slop check --update`, then commit `slop.lock` |\n" +
      "\n| Provider | Model | Invalidated tokens (the model's) | Extra cost of the next call |\n" +
      "| --- | --- | ---: | ---: |\n" +
      "| anthropic | claude-haiku-4-5 | ~40 | $0.000046 |\n" +
      "| openai | gpt-5-mini | 33 | $0.000007 |\n" +
      "| gemini | gemini-2.5-flash | ~36 | $0.000010 |\n" +
      "| deepseek | deepseek-chat | ~44 | $0.000011 |\n",
  );
  assert.deepEqual(after.outputs, {
    status: "drift",
    "first-divergence": "files:intro.md",
    "invalidated-tokens": "33",
    "invalidated-share": "5.1",
    cost: "0.000046",
    report: after.outputs.report,
  });
  assertReport(after);
  // docs/ci.md shows this summary, byte for byte.
  const docs = await Deno.readTextFile(join(REPO, "docs/ci.md"));
  assert.ok(docs.includes("```text\n" + after.summary + "```\n"), "docs/ci.md's sample summary");
  // The human report goes to the log.
  assert.match(after.stderr, /first divergent block: #3 "files:intro\.md"/);
  // The pull request's diff shows the divergence at the file, with what to do.
  assert.equal(
    after.stdout,
    "::error file=intro.md,title=slop check%3A prefix drift::This file's change breaks the " +
      "stable prefix pinned in slop.lock here: 33 of its 649 o200k tokens (5.1%25), from here on, lose " +
      "their provider cache. If intended, run `slop check --update` and commit slop.lock with " +
      "this change\n",
  );

  // Within a budget it passes, and says so.
  const within = await runAction(root, { INPUT_MAX_INVALIDATED: "10%" });
  assert.equal(within.code, 0, within.stderr);
  assert.equal(within.outputs.status, "within");
  assert.match(
    within.summary,
    /^\| Result \| pass: the stable prefix drifted within `--max-invalidated 10%` \|$/m,
  );
  assert.match(within.stdout, /^::warning file=intro\.md,title=slop check%3A prefix drift::/);
  // No budget: any drift fails. No report-name: no report is written.
  const strict = await runAction(root, { INPUT_REPORT_NAME: "" });
  assert.equal(strict.code, 1);
  assert.match(strict.summary, /^\| Result \| fail: the stable prefix drifted \|$/m);
  assert.equal(strict.outputs.report, undefined);
  assert.equal(strict.outputs.status, "drift");
});

Deno.test("the action fails without a lock and on bad input, and says why in the summary", async () => {
  const root = await makeProject({ "a.md": "# A\n" });
  await gitInit(root);
  const none = await runAction(root);
  assert.equal(none.code, 1);
  assert.equal(
    none.summary,
    "### slop check\n\n| | |\n| --- | --- |\n" +
      "| Lock | `slop.lock` |\n" +
      "| Result | fail: no lock to compare with |\n" +
      "| Fix | run `slop check --update` and commit `slop.lock` |\n",
  );
  assert.equal(none.outputs.status, "no-lock");

  const bad = await runAction(root, { INPUT_MAX_INVALIDATED: "lots" });
  assert.equal(bad.code, 2);
  assert.equal(
    bad.summary,
    "### slop check\n\n| | |\n| --- | --- |\n" +
      "| Result | error: slop check could not compare the prefix |\n" +
      '| Error | `Invalid --max-invalidated "lots": expected PERCENT% (0-100) or TOKENS` |\n',
  );
  assert.deepEqual(bad.outputs, {
    status: "error",
    "first-divergence": "",
    "invalidated-tokens": "",
    "invalidated-share": "",
    cost: "",
  });
  assert.ok(!existsSync(join(root, "slop.lock")));
});

Deno.test("with fail-on-secret the action fails on a secret and lists where; without, it redacts and passes", async () => {
  // Built at run time, so that this file holds no key shape a scanner would flag.
  const key = ["ghp", "_", "a1B2".repeat(9)].join("");
  const root = await makeProject({ "a.md": "# A\n", "b.py": `token = "${key}"\n` });
  await gitInit(root);
  assert.equal((await runCliShared(["check", "--update"], root)).code, 0);
  const passing = await runAction(root);
  assert.equal(passing.code, 0, passing.stderr);
  assert.equal(passing.outputs.status, "match");

  const failing = await runAction(root, { INPUT_FAIL_ON_SECRET: "true" });
  assert.equal(failing.code, 1);
  assert.equal(failing.outputs.status, "secret");
  assert.equal(
    failing.summary,
    "### slop check\n\n| | |\n| --- | --- |\n" +
      "| Result | fail: 1 secret found (`fail-on-secret`) |\n" +
      "| Secret | `b.py:1` (github) |\n" +
      "| Fix | take the secret out of the file (and revoke it), or leave the file out of slop's files |\n",
  );
  assert.equal(
    failing.stdout,
    "::error file=b.py,line=1,title=slop check%3A a secret::A secret (github) is on this line: " +
      "take it out of the file (and revoke it), or leave the file out of slop's files\n",
  );
  assert.ok(!failing.summary.includes(key) && !failing.stderr.includes(key));
  assert.ok(!failing.stdout.includes(key));
  assert.ok(!("report" in failing.outputs), "no report of a commit that failed on a secret");

  const typo = await runAction(root, { INPUT_FAIL_ON_SECRET: "yes" });
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /Invalid input "fail-on-secret": expected true or false, got "yes"/);
});

Deno.test("a config's secrets.failOnSecret fails the action on a secret too", async () => {
  const root = await makeProject({
    "a.md": "# A\n",
    "slop.config.ts": `export default { secrets: { failOnSecret: true } };\n`,
    "b.txt": `password = "correct-horse-battery-staple-9"\n`,
  });
  await gitInit(root);
  const run = await runAction(root);
  assert.equal(run.code, 1);
  assert.equal(run.outputs.status, "secret");
  assert.match(run.summary, /\| Secret \| `b\.txt:1` \(password\) \|/);
});

Deno.test("an error's summary is slop's message with the lines under it, not the stack's last line", () => {
  const summary = (stderr: string) => summaryMarkdown({ code: 1, stderr }, {}).split("\n")[5];
  assert.equal(
    summary('warning: a\nslop: Cannot read "x":\n  first reason\n  second reason\n'),
    '| Error | `Cannot read "x": first reason second reason` |',
  );
  assert.equal(
    summary(
      "slop: internal error: boom\n(a bug in slop: please report it)\n    at run (file:///x.ts:1:1)\n",
    ),
    "| Error | `internal error: boom` |",
  );
});

Deno.test("action.yml hands every input to the script and every output from it", async () => {
  const yml = await Deno.readTextFile(join(REPO, "action.yml"));
  assert.match(yml, /^runs:\n {2}using: composite\n/m);
  assert.match(yml, /uses: denoland\/setup-deno@v2\n/);
  assert.match(yml, /uses: actions\/upload-artifact@v4\n/);
  assert.match(yml, /run: deno run -A --quiet "\$GITHUB_ACTION_PATH\/ci\/action\.ts"\n/);
  const inputs = yml.slice(yml.indexOf("\ninputs:\n"), yml.indexOf("\noutputs:\n"));
  const names = [...inputs.matchAll(/^ {2}([a-z-]+):$/gm)].map((m) => m[1]);
  for (
    const name of [
      "config",
      "persona",
      "preset",
      "max-invalidated",
      "fail-on-secret",
      "report-name",
    ]
  ) {
    assert.ok(names.includes(name), `input ${name}`);
    const variable = `INPUT_${name.toUpperCase().replaceAll("-", "_")}`;
    assert.ok(yml.includes(`        ${variable}: \${{ inputs.${name} }}\n`), variable);
  }
  for (const name of ["working-directory", "deno-version"]) {
    assert.ok(names.includes(name), `input ${name}`);
    assert.ok(yml.includes(`\${{ inputs.${name} }}`), `input ${name} is used`);
  }
  const outputs = yml.slice(yml.indexOf("\noutputs:\n"), yml.indexOf("\nruns:\n"));
  const declared = [...outputs.matchAll(/^ {2}([a-z-]+):$/gm)].map((m) => m[1]);
  assert.deepEqual(declared, [
    "status",
    "first-divergence",
    "invalidated-tokens",
    "invalidated-share",
    "cost",
    "report",
  ]);
  for (const name of declared) {
    assert.ok(yml.includes(`    value: \${{ steps.check.outputs.${name} }}\n`), name);
  }
});

Deno.test("the summary keeps a table whole whatever the block's name, and outputs survive line breaks", () => {
  const diff: LockDiff = {
    index: 0,
    kind: "added",
    id: "files:a|b`c\nd.md",
    section: "files",
    file: "a|b`c\nd.md",
    offset: 0,
    after: { sha256: "0".repeat(64), bytes: 9, index: 0 },
    invalidatedTokens: 0,
    pinnedTokens: 0,
    counts: { changed: 0, added: 1, removed: 0, moved: 0 },
  };
  const summary = summaryMarkdown(
    {
      code: 1,
      json: {
        lock: "locks/x|y.lock",
        pinned: true,
        diff,
        total: { sha256: "", bytes: 9, tokens: 3 },
      },
      stderr: "",
    },
    { persona: "review`er", maxInvalidated: "0" },
  );
  assert.ok(
    summary.includes(
      "| Lock | `locks/x\\|y.lock` (persona ``review`er``) |\n" +
        "| Result | fail: the stable prefix drifted beyond `--max-invalidated 0` |\n" +
        "| First divergent block | #1 ``files:a\\|b`c\\nd.md`` (section files, file ``a\\|b`c\\nd.md``) |\n" +
        "| What changed | added (not in the lock, 9 bytes) |\n",
    ),
    summary,
  );
  // Every line of the table is a row: no cell broke it.
  for (const line of summary.split("\n").slice(2).filter(Boolean)) assert.match(line, /^\|.*\|$/);
  assert.equal(
    outputLines({ status: "drift", "first-divergence": "files:a\nSLOP_EOF" }),
    "status=drift\nfirst-divergence<<SLOP_EOF_\nfiles:a\nSLOP_EOF\nSLOP_EOF_\n",
  );
});

Deno.test("the action checks a persona's prefix against the persona's own lock, with the config named", async () => {
  const root = await makeProject({
    "slop/context.config.ts":
      'export default { root: "..", files: ["*.md"], personas: { reviewer: { defaultView: "summary" } } };\n',
    "a.md": "# A\n\nAlpha.\n",
    "b.md": "# B\n\nBravo.\n",
  });
  await gitInit(root);
  const config = "slop/context.config.ts";
  const pin = await runCliShared(
    ["check", "--config", config, "--persona", "reviewer", "--update"],
    root,
  );
  assert.equal(pin.code, 0, pin.stderr);
  const run = await runAction(root, { INPUT_CONFIG: config, INPUT_PERSONA: "reviewer" });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.summary, /^\| Lock \| `slop\/slop\.reviewer\.lock` \(persona `reviewer`\) \|$/m);
  assert.equal(run.outputs.status, "match");
  // The plain lock was never pinned: without the persona the action says so.
  const plain = await runAction(root, { INPUT_CONFIG: config });
  assert.equal(plain.code, 1);
  assert.equal(plain.outputs.status, "no-lock");
  assert.match(plain.summary, /run `slop check --config slop\/context\.config\.ts --update`/);
});

Deno.test("annotations name the file from the checkout's root, escaped as GitHub reads them", () => {
  const diff = {
    index: 2,
    kind: "moved",
    id: "files:a,b:c%.md",
    section: "files",
    file: "a,b:c%.md",
    offset: 10,
    invalidatedTokens: 5,
    pinnedTokens: 50,
    counts: { changed: 0, added: 0, removed: 0, moved: 1 },
  } as LockDiff;
  const check = { status: "drift", lock: "web.lock", diff, update: "slop check --update" };
  // The action's working-directory is a folder of the repository.
  const [line] = annotationLines(check, { cwd: "/w/repo/packages/web", workspace: "/w/repo" });
  assert.equal(
    line,
    "::error file=packages/web/a%2Cb%3Ac%25.md,title=slop check%3A prefix drift::This file's " +
      "move in the order breaks the stable prefix pinned in web.lock here: 5 of its 50 tokens " +
      "(10.0%25), from here on, lose their provider cache. If intended, run `slop check " +
      "--update` and commit web.lock with this change",
  );
  // A block that is no file's (a section of its own) has no place on the diff: the annotation
  // is the run's, naming the block.
  const section = { ...check, diff: { ...diff, id: "knowledge", file: undefined } };
  assert.deepEqual(annotationLines(section, { cwd: "/w/repo" }), [
    "::error title=slop check%3A prefix drift::The stable prefix pinned in web.lock breaks at " +
    'the block "knowledge" (move in the order): 5 of its 50 tokens (10.0%25), from here on, ' +
    "lose their provider cache. If intended, run `slop check --update` and commit web.lock " +
    "with this change",
  ]);
  assert.deepEqual(annotationLines({ ...check, status: "match" }, { cwd: "/w/repo" }), []);
});

// A check that fails without a divergence (no lock, a config error) showed on the pull request
// as an exit code alone: its annotation says what to run or what went wrong.
Deno.test("annotations say what to run when there is no lock, and what failed on an error", () => {
  const place = { cwd: "/w/repo/web", workspace: "/w/repo" };
  const update = "cd web && slop check --update";
  assert.deepEqual(annotationLines({ status: "no-lock", lock: "web/slop.lock", update }, place), [
    "::error title=slop check%3A no lock::No web/slop.lock to compare the stable prefix with: " +
    "run `cd web && slop check --update` and commit web/slop.lock",
  ]);
  const error = 'Unknown key "fils" in slop.config.ts (did you mean "files"?)\nat files';
  assert.deepEqual(annotationLines({ status: "error", update, error }, place), [
    '::error title=slop check%3A error::Unknown key "fils" in slop.config.ts (did you mean ' +
    '"files"?)',
  ]);
});

Deno.test("with a working-directory the summary says where to re-pin, from the repository's root", () => {
  const total = { sha256: "", bytes: 10, tokens: 3 };
  const summary = summaryMarkdown(
    { code: 1, json: { lock: "slop.lock", pinned: false, total }, stderr: "" },
    { folder: "services/my app" },
  );
  assert.equal(
    summary,
    "### slop check\n\n| | |\n| --- | --- |\n" +
      "| Lock | `services/my app/slop.lock` |\n" +
      "| Result | fail: no lock to compare with |\n" +
      "| Fix | run `cd 'services/my app' && slop check --update` and commit " +
      "`services/my app/slop.lock` |\n",
  );
});
