import assert from "node:assert/strict";
import { compileGlobs, needsPicomatch, simpleGlobs } from "../../pipeline/_glob.ts";
import { loadGlobs, loadPicomatch } from "../../deps.ts";
import { tempDir } from "../_helpers.ts";

/** A small deterministic generator (xorshift), so that every run tries the same cases. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

const SEGMENTS = [
  ...["src", "a", "b", "README.md", ".github", ".env", "é", "日本", "a b", "x.d.ts", "index.ts"],
  ...["a.ts", ".", "..", "...", "", "\n", "a\nb.ts", "\rx", "x\u2028", "-_~", "#1", "a\\b", "*"],
  ...["a*", ".ts", "ts", "md", "a.md", "b.ts/", "\0", "x%=:;&y", "e\u0301", "Ⅻ²", "ß", "a.b.c"],
];

const PATTERN_SEGMENTS = [
  ...["src", "a", "b", "README.md", ".github", "é", "日本", "a b", "**", "*", "*.ts", "*.md"],
  ...["*.d.ts", "a*", "*a", "a*b", "*.*", ".*", "*.", "x.*", "a.ts", "*a*", "-_~", "#1", "ts"],
  ...["md", ".env*", "x%=:;&y", "e\u0301", "Ⅻ²*", "ß", "*.b.c", "a.b*"],
];

function pick<T>(next: () => number, list: T[]): T {
  return list[Math.floor(next() * list.length)];
}

function join(next: () => number, list: string[], max: number): string {
  const n = 1 + Math.floor(next() * max);
  return Array.from({ length: n }, () => pick(next, list)).join("/");
}

// First in this file: picomatch is not loaded yet in this process.
Deno.test("compileGlobs() matches literal, * and ** patterns alone, and others once picomatch is loaded", async () => {
  assert.equal(needsPicomatch(["src/**", "**/*.ts", "docs/*.md", "README.md"]), false);
  assert.equal(needsPicomatch(["src/{a,b}.ts"]), true);
  // `nocase` is the expression's `i` flag: built here too.
  assert.equal(needsPicomatch(["src/**"], { dot: true, nocase: true }), false);
  assert.equal(needsPicomatch(["src/**"], {}), true);
  assert.throws(() => compileGlobs("src/**", {}), /needs picomatch/);
  assert.equal(compileGlobs(["src/**", "*.md"])("src/a/b.ts"), true);
  assert.throws(
    () => compileGlobs("src/{a,b}.ts"),
    new Error(
      '[slop] Glob "src/{a,b}.ts" needs picomatch, which is not loaded yet ' +
        "(await loadGlobs() of mod.ts first)",
    ),
  );
  await loadGlobs(["src/**"]);
  assert.equal(needsPicomatch(["src/{a,b}.ts"]), true);
  await loadGlobs(["src/{a,b}.ts"]);
  assert.equal(needsPicomatch(["src/{a,b}.ts"]), false);
  assert.equal(compileGlobs("src/{a,b}.ts")("src/b.ts"), true);
  assert.equal(compileGlobs("src/{a,b}.ts")("src/c.ts"), false);
});

Deno.test("simpleGlobs() decides literal, * and ** patterns exactly as picomatch with dot does", async () => {
  const picomatch = await loadPicomatch();
  const next = random(20261124);
  const patterns = new Set<string>([
    "**",
    "src/**",
    "**/*.ts",
    "docs/*.md",
    "README.md",
    "a/**/b",
    "**/a",
    "a/**/*",
    "*",
    "*.ts",
    "**/*",
    "*/*",
    "*.*",
    "**/*.*",
    "**/.*",
    ".*",
    "*.d.ts",
    "**/*.d.ts",
    "src/*.d.ts",
    "***",
    "**/**",
    "**/**/**",
    ".github/**",
    "**/a/**",
    "a/*/b",
    "*/a",
    "a*",
    "*a",
    "src/*",
  ]);
  while (patterns.size < 400) patterns.add(join(next, PATTERN_SEGMENTS, 4));
  const paths = new Set<string>(["", "/", "//", "a/", "/a", "src", "src/", "a//b", "README.md"]);
  while (paths.size < 1500) {
    const path = join(next, SEGMENTS, 5);
    paths.add(next() < 0.1 ? path + "/" : next() < 0.1 ? "/" + path : path);
  }
  for (const pattern of patterns) paths.add(pattern);
  let simple = 0;
  for (const pattern of patterns) {
    const ours = simpleGlobs(pattern);
    if (!ours) continue;
    simple++;
    const theirs = picomatch(pattern, { dot: true });
    for (const path of paths) {
      assert.equal(
        ours(path),
        theirs(path),
        `${JSON.stringify(pattern)} on ${JSON.stringify(path)}`,
      );
    }
  }
  assert.ok(simple > 300, `${simple} of ${patterns.size} patterns are simple`);
  // Lists match when any pattern does.
  const lists = [["docs/*.md", "src/**"], ["**/*.ts", "README.md", "a*"], []];
  for (const list of lists) {
    const ours = simpleGlobs(list)!;
    const theirs = picomatch(list, { dot: true });
    for (const path of paths) assert.equal(ours(path), theirs(path), `${list} on ${path}`);
  }
  assert.equal(simpleGlobs(["src/**", "src/{a,b}.ts"]), undefined);
});

/** Whether `name` matches `pattern` of literals and `*` (no `/`), by the textbook table. */
function wildcard(pattern: string, name: string): boolean {
  let row = [true, ...Array.from(name, () => false)];
  for (const c of pattern) {
    const next = [c === "*" && row[0]];
    for (let j = 1; j <= name.length; j++) {
      next[j] = c === "*" ? next[j - 1] || row[j] : row[j - 1] && name[j - 1] === c;
    }
    row = next;
  }
  return row[name.length];
}

Deno.test("a segment of many stars (*a*a*…*b) matches a long name at once, as picomatch decides (with and without nocase)", async () => {
  const picomatch = await loadPicomatch();
  const next = random(20261129);
  const pieces = ["a", "b", "ab", "ba", "A", "é", ".", "x"];
  let simple = 0;
  for (let n = 0; n < 300; n++) {
    const stars = 2 + Math.floor(next() * 5);
    let pattern = next() < 0.5 ? "" : pick(next, pieces);
    for (let i = 0; i < stars; i++) pattern += "*" + pick(next, pieces);
    if (next() < 0.3) pattern += "*";
    const name = Array.from({ length: 1 + Math.floor(next() * 12) }, () => pick(next, pieces))
      .join("");
    if (!simpleGlobs(pattern)) continue; // `.*` starting a segment: picomatch's own expression
    simple++;
    for (const nocase of [false, true]) {
      const ours = simpleGlobs(pattern, { nocase })!;
      const theirs = picomatch(pattern, { dot: true, nocase });
      for (const path of [name, `src/${name}`, `${name}/x`]) {
        assert.equal(ours(path), theirs(path), `${pattern} on ${path} (nocase ${nocase})`);
      }
    }
  }
  assert.ok(simple > 250, `${simple} of 300 patterns are simple`);
  // 30 stars against names of 300 letters: a regular expression that backtracks takes ages here.
  const long = "a".repeat(300);
  for (
    const [pattern, name] of [
      ["*a".repeat(30) + "*b", long],
      ["*a".repeat(30) + "*b", long + "b"],
      ["*a".repeat(30) + "*.txt", long + ".txt"],
      ["a*".repeat(30) + "b", long],
      ["*ab".repeat(30) + "*c", "ab".repeat(150)],
    ]
  ) {
    for (const nocase of [false, true]) {
      assert.equal(compileGlobs(pattern, { dot: true, nocase })(name), wildcard(pattern, name));
    }
  }
});

Deno.test("a glob picomatch matches with more than 3 stars in a segment is refused, naming the key or flag", async () => {
  const { globStarProblem } = await import("../../pipeline/_glob.ts");
  const { loadConfig } = await import("../../pipeline/config.ts");
  // slop's own matcher (only `*`, `**`, plain text) is linear: no limit.
  assert.equal(globStarProblem("*a*a*a*a*a*a*b"), undefined);
  assert.equal(globStarProblem("**/{a,b}*x*y*.ts"), undefined); // three stars: fine
  for (const pattern of ["{a,b}*a*a*a*b", "src/*[ab]*c*d*", "?*a*a*a*", "x/**/*.{js,ts}*a*b*c"]) {
    assert.match(globStarProblem(pattern) ?? "", /^holds \d+ "\*" in one segment/, pattern);
  }
  const TOO_MANY = 'holds 4 "\\*" in one segment, with braces, a class or "\\?" that picomatch ' +
    "matches, whose time grows as a name's length to the power of the stars: use at most 3 " +
    'there, or only "\\*" and plain text';
  const cwd = await tempDir();
  for (const key of ["include", "exclude"] as const) {
    await assert.rejects(
      () => loadConfig({ cwd, inline: { [key]: ["src/**", "{a,b}*a*a*a*b"] } }),
      new RegExp(
        `Invalid config "inline config": "${key}\\[1\\]" "\\{a,b\\}\\*a\\*a\\*a\\*b" ${TOO_MANY}`,
      ),
    );
  }
  await assert.rejects(
    () => loadConfig({ cwd, inline: { files: [{ path: "[ab]*a*a*a*b" }] } }),
    /"files\[0\]\.path" "\[ab\]\*a\*a\*a\*b" holds 4/,
  );
  await assert.rejects(
    () => loadConfig({ cwd, focus: ["{a,b}*a*a*a*b"] }),
    new RegExp(`Option --focus "\\{a,b\\}\\*a\\*a\\*a\\*b" ${TOO_MANY}$`),
  );
  await Deno.remove(cwd, { recursive: true });
});

Deno.test("a glob longer than picomatch takes (65,536 characters) is refused, naming the key or flag", async () => {
  const { loadConfig } = await import("../../pipeline/config.ts");
  // picomatch threw "Input length: 70001, exceeds maximum allowed length: 65536", naming nothing.
  const long = "a".repeat(70_000) + "*";
  const TOO_LONG = "is 70001 characters long, over the 65536 a glob matched by picomatch may hold";
  const cwd = await tempDir();
  for (const key of ["include", "exclude", "files"] as const) {
    await assert.rejects(
      () => loadConfig({ cwd, inline: { [key]: ["src/**", long] } }),
      (e: Error) => e.message.includes(`"${key}[1]" "aaaa`) && e.message.includes(TOO_LONG),
    );
  }
  await assert.rejects(
    () => loadConfig({ cwd, inline: { ordering: { pinned: [long] } } }),
    (e: Error) => e.message.includes(`"ordering.pinned[0]"`) && e.message.includes(TOO_LONG),
  );
  await assert.rejects(
    () => loadConfig({ cwd, focus: [long] }),
    (e: Error) => e.message.startsWith("Option --focus") && e.message.includes(TOO_LONG),
  );
  // A plain name of that length is no glob: matched as written, with no limit.
  await loadConfig({ cwd, inline: { exclude: ["a".repeat(70_000)] } });
  await Deno.remove(cwd, { recursive: true });
});
