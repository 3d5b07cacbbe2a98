import assert from "node:assert/strict";
import { build, loadConfig, type SlopConfig } from "../../mod.ts";
import { defaultPlugins } from "../../plugins/defaults.ts";
import { GENERATED_FILES, generatedReason } from "../../pipeline/resolve.ts";
import { summaryText } from "../../cli/build.ts";
import { makeProject } from "../_helpers.ts";

/** One file of every generated kind, beside ordinary ones. */
const TREE: Record<string, string> = {
  "src/app.js": "export const app = 1;\n",
  "src/data.json": '{"ok": true}\n',
  "package-lock.json": '{"lockfileVersion": 3}\n',
  "web/yarn.lock": "# yarn lockfile v1\n",
  "web/pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
  "bun.lock": "{}\n",
  "bun.lockb": "binary-ish\n",
  "Cargo.lock": "version = 3\n",
  "py/poetry.lock": "# poetry\n",
  "py/uv.lock": "version = 1\n",
  "py/Pipfile.lock": "{}\n",
  "go.sum": "golang.org/x/text v0.3.0 h1:abc=\n",
  "composer.lock": "{}\n",
  "Gemfile.lock": "GEM\n",
  "dist/app.min.js": "var a=1;\n",
  "dist/app.min.css": "a{b:c}\n",
  "dist/app.js.map": '{"version":3,"mappings":""}\n',
  "tsconfig.tsbuildinfo": "{}\n",
};

const SKIPPED = Object.keys(TREE).filter((p) => !p.startsWith("src/")).sort();

async function buildOf(root: string, inline?: SlopConfig, paths?: string[]) {
  const config = await loadConfig({ cwd: root, inline, paths });
  return await build(config, { builtins: defaultPlugins(), write: false });
}

Deno.test("zero-config lists lockfiles, minified files, source maps and build info as skipped with a reason", async () => {
  const root = await makeProject(TREE);
  const result = await buildOf(root);
  const skipped = result.manifest.files.filter((f) => f.status === "skipped");
  assert.deepEqual(skipped.map((f) => f.path).sort(), SKIPPED);
  const reasons = new Map(skipped.map((f) => [f.path, f.reason]));
  assert.equal(
    reasons.get("web/yarn.lock"),
    'lockfile, skipped by default: name it in "files" to include it',
  );
  assert.match(reasons.get("dist/app.min.js")!, /^minified file, skipped by default/);
  assert.match(reasons.get("dist/app.js.map")!, /^source map, skipped by default/);
  assert.match(reasons.get("tsconfig.tsbuildinfo")!, /^build info, skipped by default/);
  // Their text is in no block of the document; the ordinary files are.
  assert.doesNotMatch(result.document, /lockfileVersion|golang\.org|mappings|var a=1/);
  assert.match(result.document, /export const app = 1;/);
  assert.match(result.document, /"ok": true/);
  // The build summary names them with the reason (the twelve lockfiles on one line).
  assert.match(
    summaryText(result),
    /skipped: Cargo\.lock and 11 more files \(lockfile, skipped by default: name it in "files" to include it\)/,
  );
});

Deno.test("a generated file named by a literal path or a glob that spells it is rendered", async () => {
  const root = await makeProject(TREE);
  const result = await buildOf(root, {
    files: ["**", "Cargo.lock", "**/*.min.js", "py/*.lock", "**/yarn.lock", "**/*.map"],
  });
  const status = new Map(result.manifest.files.map((f) => [f.path, f.status]));
  for (const path of ["Cargo.lock", "dist/app.min.js", "py/uv.lock", "py/poetry.lock"]) {
    assert.equal(status.get(path), "rendered", path);
  }
  assert.equal(status.get("py/Pipfile.lock"), "rendered");
  assert.equal(status.get("web/yarn.lock"), "rendered");
  assert.equal(status.get("dist/app.js.map"), "rendered");
  // `**` and a glob of a common ending (`*.json`, `*.css`) name none of them.
  for (const path of ["package-lock.json", "go.sum", "dist/app.min.css", "web/pnpm-lock.yaml"]) {
    assert.equal(status.get(path), "skipped", path);
  }
  const json = await buildOf(root, { files: ["**/*.json", "**/*.css"] });
  const jsonStatus = new Map(json.manifest.files.map((f) => [f.path, f.status]));
  assert.equal(jsonStatus.get("src/data.json"), "rendered");
  assert.equal(jsonStatus.get("package-lock.json"), "skipped");
  assert.equal(jsonStatus.get("dist/app.min.css"), "skipped");
  // `include` names them as `files` does.
  const included = await buildOf(root, { include: ["go.sum"] });
  assert.equal(included.manifest.files.find((f) => f.path === "go.sum")?.status, "rendered");
});

Deno.test("a generated file given as a build path is rendered, one under a given folder is not", async () => {
  const root = await makeProject(TREE);
  const named = await buildOf(root, undefined, [`${root}/py/uv.lock`]);
  assert.deepEqual(named.manifest.files.map((f) => [f.path, f.status]), [[
    "py/uv.lock",
    "rendered",
  ]]);
  const folder = await buildOf(root, undefined, [`${root}/py`]);
  assert.deepEqual(
    folder.manifest.files.map((f) => f.status),
    ["skipped", "skipped", "skipped"],
  );
});

Deno.test("Gradle's and Maven's wrapper scripts are skipped as a build tool's, their properties kept", async () => {
  // spring-petclinic commits both: 31 KB of boilerplate, a tenth of its document.
  const root = await makeProject({
    "gradlew": "#!/bin/sh\n# Gradle start up script for POSIX generated by Gradle.\nexec java\n",
    "gradlew.bat": "@rem Gradle startup script for Windows\r\n",
    "mvnw": "#!/bin/sh\n# Apache Maven Wrapper startup batch script, version 3.3.4\n",
    "mvnw.cmd": "@REM Apache Maven Wrapper startup batch script\r\n",
    "gradle/wrapper/gradle-wrapper.properties": "distributionUrl=https://services.gradle.org/x\n",
    "src/Main.java": "class Main {}\n",
  });
  const result = await buildOf(root);
  const rows = new Map(result.manifest.files.map((f) => [f.path, f]));
  for (const path of ["gradlew", "gradlew.bat", "mvnw", "mvnw.cmd"]) {
    assert.equal(rows.get(path)?.status, "skipped", path);
    assert.match(rows.get(path)!.reason!, /^a build tool's wrapper script, skipped by default/);
  }
  assert.equal(rows.get("gradle/wrapper/gradle-wrapper.properties")?.status, "rendered");
  // Named, it is built.
  const named = await buildOf(root, undefined, ["gradlew"]);
  assert.equal(named.manifest.files.find((f) => f.path === "gradlew")?.status, "rendered");
});

Deno.test("generatedReason() matches names exactly, not look-alikes", () => {
  for (const rule of GENERATED_FILES) {
    const name = rule.pattern.startsWith("*") ? `x${rule.pattern.slice(1)}` : rule.pattern;
    assert.ok(generatedReason(`deep/dir/${name}`), name);
  }
  for (const path of ["yarn.lock.md", "my-package-lock.json", "Cargo.lock.bak", "min.js", ".map"]) {
    assert.equal(generatedReason(path), undefined, path);
  }
  assert.equal(generatedReason("src/cargo.lock"), undefined); // names are case-sensitive
});

Deno.test("generatedReason() knows the lockfiles of Bazel, Julia, R, Haskell, Crystal, Erlang, Paket, Conan, Helm, PEP 751, Rye, Carton, Spago, opam and Yarn's Plug'n'Play", () => {
  const names = [
    "MODULE.bazel.lock",
    "maven_install.json",
    "Manifest.toml",
    "JuliaManifest.toml",
    "renv.lock",
    "stack.yaml.lock",
    "cabal.project.freeze",
    "shard.lock",
    "rebar.lock",
    "paket.lock",
    "conan.lock",
    "deploy/chart/Chart.lock",
    "jsonnetfile.lock.json",
    "pylock.toml",
    "requirements.lock",
    "requirements-dev.lock",
    "gems.locked",
    "cpanfile.snapshot",
    "spago.lock",
    "cohttp.opam.locked",
    "buildscript-gradle.lockfile",
    ".pnp.cjs",
    ".pnp.loader.mjs",
  ];
  for (const path of names) {
    assert.equal(
      generatedReason(path),
      'lockfile, skipped by default: name it in "files" to include it',
      path,
    );
  }
  for (const path of ["manifest.toml", "Manifest.toml.md", "pnp.cjs", "x.opam"]) {
    assert.equal(generatedReason(path), undefined, path);
  }
});

Deno.test("generatedReason() knows Go dep's Gopkg.lock and Glide's glide.lock", () => {
  for (const path of ["Gopkg.lock", "vendor/tool/glide.lock"]) {
    assert.equal(
      generatedReason(path),
      'lockfile, skipped by default: name it in "files" to include it',
      path,
    );
  }
});

Deno.test("generatedReason() gives the reason of the first rule of GENERATED_FILES a name matches, by name or by ending", () => {
  // The list read rule by rule, as the rules say: the reason of the first that matches.
  const reasons = new Map(
    GENERATED_FILES.filter((r) => !r.pattern.startsWith("*"))
      .map((r) => [r.kind, generatedReason(r.pattern)]),
  );
  for (const r of GENERATED_FILES) {
    if (r.pattern.startsWith("*")) {
      reasons.set(r.kind, generatedReason(`x${r.pattern.slice(1)}`));
    }
  }
  const firstRule = (name: string) =>
    GENERATED_FILES.find(({ pattern }) =>
      pattern.startsWith("*")
        ? name.endsWith(pattern.slice(1)) && name !== pattern.slice(1)
        : name === pattern
    );
  const names = ["a.py", ".lock", "a.lock", ".opam.locked", "x.min.css.map", "a/.min.js"];
  for (const { pattern } of GENERATED_FILES) {
    names.push(pattern, `d/${pattern}`, `d/${pattern.replace("*", "q")}`, `${pattern}x`);
    names.push(`d/${pattern.replace("*", "")}`, pattern.toUpperCase());
  }
  for (const path of names) {
    const rule = firstRule(path.slice(path.lastIndexOf("/") + 1));
    assert.equal(generatedReason(path), rule && reasons.get(rule.kind), path);
  }
});
