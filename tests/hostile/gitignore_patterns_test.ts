import assert from "node:assert/strict";
import { join } from "node:path";
import { walk } from "../../pipeline/resolve.ts";
import { ignoreMatch, parseIgnore } from "../../pipeline/_gitignore.ts";
import { tallyWork } from "../../pipeline/helpers.ts";
import { git, makeProject, prng, REPO, type Tree, V8_FLAGS } from "../_helpers.ts";

const NAMES = [
  "a",
  "b",
  "ab",
  "a b",
  "x.log",
  "1",
  "#c",
  "!d",
  "a[1]",
  "é",
  "e\u0301",
  "ba",
  "a-z",
];
const PARTS = [
  "a",
  "b",
  "*",
  "**",
  "?",
  "[a-b]",
  "[!a]",
  "[^b]",
  "[[:digit:]]",
  "[]a]",
  "\\ ",
  "\\!",
  "\\#",
  "\\*",
  ".log",
  " ",
  "-",
  "[",
  "\\",
];

/** A seeded `.gitignore` line: segments of odd parts, maybe anchored, negated, folder-only. */
function line(random: () => number): string {
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  const segments = Array.from(
    { length: 1 + Math.floor(random() * 3) },
    () => Array.from({ length: 1 + Math.floor(random() * 2) }, () => pick(PARTS)).join(""),
  );
  let text = segments.join("/");
  if (random() < 0.2) text = "/" + text;
  if (random() < 0.2) text += "/";
  if (random() < 0.25) text = "!" + text;
  if (random() < 0.15) text += "  ";
  return text;
}

/** A seeded tree of files up to three folders deep, with a `.gitignore` at the top and in `a`. */
function tree(seed: number): Tree {
  const random = prng(seed);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  const files: Tree = {};
  for (let i = 0; i < 30; i++) {
    const depth = Math.floor(random() * 4);
    const path = [...Array.from({ length: depth }, () => pick(NAMES)), pick(NAMES)].join("/");
    if (Object.keys(files).some((p) => p.startsWith(path + "/") || path.startsWith(p + "/"))) {
      continue; // a file where another path needs a folder
    }
    files[path] = `${i}\n`;
  }
  const eol = random() < 0.3 ? "\r\n" : "\n";
  files[".gitignore"] = Array.from({ length: 6 }, () => line(random)).join(eol) + eol;
  if (!Object.keys(files).some((p) => p === "a")) {
    files["a/.gitignore"] = Array.from({ length: 3 }, () => line(random)).join("\n") + "\n";
  }
  return files;
}

async function gitListing(root: string): Promise<string[]> {
  await git(root, "init", "-q");
  const out = await git(
    root,
    "-c",
    "core.excludesFile=/dev/null",
    "-c",
    "core.quotePath=false",
    "ls-files",
    "-co",
    "--exclude-standard",
    "-z",
  );
  return out.split("\0").filter(Boolean).sort();
}

Deno.test("a .gitignore outside git is matched as git matches it (30 seeded pattern sets)", async () => {
  for (let seed = 1; seed <= 30; seed++) {
    const root = await makeProject(tree(seed));
    const walked = (await walk(root)).sort();
    const expected = await gitListing(root);
    assert.deepEqual(
      walked,
      expected,
      `seed ${seed}: .gitignore ${JSON.stringify(Deno.readTextFileSync(join(root, ".gitignore")))}`,
    );
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("pathological .gitignore patterns over a 200-folder tree are matched in linear time", async () => {
  const deep = Array.from({ length: 200 }, (_, i) => `d${i % 10}`).join("/");
  const root = await makeProject({
    [`${deep}/leaf.ts`]: "export {};\n",
    [`${deep}/x.tmp`]: "tmp\n",
    [`${"a".repeat(250)}.md`]: "long name\n",
    ".gitignore": [
      "**/".repeat(20) + "*.tmp",
      "**/*/".repeat(8) + "never",
      "**/d*/".repeat(8) + "never",
      "*a".repeat(30) + "b",
      "/" + "*".repeat(200) + "x",
      "**" + "/a".repeat(200),
    ].join("\n") + "\n",
  });
  // In a child with a deadline: a regular expression that backtracks holds the event loop, so a
  // timer in this process would never fire.
  const code = `import { walk } from ${JSON.stringify(join(REPO, "pipeline/resolve.ts"))};
console.log(JSON.stringify(await walk(${JSON.stringify(root)})));`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", V8_FLAGS, code],
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  assert.ok(
    out.success,
    `the walk finished: ${new TextDecoder().decode(out.stderr).slice(0, 300)}`,
  );
  assert.deepEqual(JSON.parse(new TextDecoder().decode(out.stdout)), [
    ".gitignore",
    `${"a".repeat(250)}.md`,
    `${deep}/leaf.ts`,
  ]);
});

Deno.test("a .gitignore of thousands of names and `*.ext` patterns does not run each one on each path (counted)", async () => {
  // A generated ignore list (every build product by name, every odd extension): the walk matched
  // each path against each rule by running its states, 5,000 rules x 2,000 files in minutes.
  const rules = parseIgnore(
    Array.from(
      { length: 1000 },
      (_, i) => [`build/gen/file${i}.o`, `*.ext${i}`, `/out${i}/`, `cache${i}/**`].join("\n"),
    ).join("\n"),
  );
  const paths = Array.from({ length: 64 }, (_, i) => `src/part${i}/mod${i}.ts`);
  const work = (await tallyWork(() => {
    for (const path of paths) assert.equal(ignoreMatch(rules, path, false), undefined);
    assert.equal(ignoreMatch(rules, "build/gen/file7.o", false), "ignored");
    assert.equal(ignoreMatch(rules, "a/b.ext12", false), "ignored");
    assert.equal(ignoreMatch(rules, "cache3/x/y", false), "ignored");
    assert.equal(ignoreMatch(rules, "out5", true), "ignored");
  })).get("ignore") ?? 0;
  // A run of a rule's states costs its tokens and one: under one run a path here.
  assert.ok(work < paths.length * 20, `${work} units for ${paths.length} paths and 4,000 rules`);
});
