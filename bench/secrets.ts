/**
 * The secret scan's share of a cold build, on the machine's Python standard
 * library (every `.py` file, tests included, without site-packages, copied to
 * a temp folder so no enclosing git repo hides it): resolve + read once, then
 * time the scan (with and without the secretlint prefilter) and a whole cold
 * build (no cache, not written).
 *
 * ```sh
 * deno run -A bench/secrets.ts [ROOT]   # default: <python3 prefix>/lib/python3.11
 * ```
 *
 * @module
 */

import { loadConfig } from "../pipeline/config.ts";
import { resolveTargets } from "../pipeline/resolve.ts";
import { readTargets } from "../pipeline/read.ts";
import { build } from "../pipeline/build.ts";
import { redactText } from "../pipeline/secrets.ts";
import { defaultPlugins } from "../plugins/defaults.ts";

async function pythonStdlib(): Promise<string> {
  const out = await new Deno.Command("python3", {
    args: ["-c", "import sysconfig;print(sysconfig.get_paths()['stdlib'])"],
    stdout: "piped",
  }).output();
  const stdlib = new TextDecoder().decode(out.stdout).trim();
  const copy = await Deno.makeTempDir({ prefix: "slop_stdlib_" });
  const script = `find . -name '*.py' -not -path './site-packages/*' -print0 | ` +
    `tar --null -cf - -T - | tar -xf - -C '${copy}'`;
  const tar = await new Deno.Command("sh", { args: ["-c", script], cwd: stdlib }).output();
  if (!tar.success) throw new Error(`Cannot copy "${stdlib}"`);
  return copy;
}

const copied = Deno.args[0] === undefined;
const root = Deno.args[0] ?? await pythonStdlib();
const stateDir = await Deno.makeTempDir();
const config = await loadConfig({
  cwd: root,
  stateDir,
  inline: { files: ["**/*.py"], cache: { enabled: false } },
});
const { targets } = await resolveTargets(config);
const sources = await readTargets(targets, config);
const texts = sources.filter((s) => s.text !== undefined);
const mb = texts.reduce((n, s) => n + s.size, 0) / 1e6;

async function scan(prefilter: boolean): Promise<{ ms: number; findings: number }> {
  const start = performance.now();
  let findings = 0;
  for (const s of texts) {
    findings += (await redactText(s.text!, s.path, { prefilter })).findings.length;
  }
  return { ms: performance.now() - start, findings };
}

await redactText("warm up sk-x", "a.txt"); // load secretlint once, outside the timings
const withHints = await scan(true);
const everyFile = await scan(false);
const start = performance.now();
await build(config, { builtins: defaultPlugins(), write: false });
const buildMs = performance.now() - start;
await Deno.remove(stateDir, { recursive: true });
if (copied) await Deno.remove(root, { recursive: true });

console.log(`root: ${root}`);
console.log(`files: ${texts.length} texts, ${mb.toFixed(1)} MB`);
console.log(
  `scan with prefilter: ${withHints.ms.toFixed(0)} ms, ${withHints.findings} findings`,
);
console.log(
  `scan, secretlint on every file: ${everyFile.ms.toFixed(0)} ms, ${everyFile.findings} findings`,
);
console.log(`cold build (scan included): ${buildMs.toFixed(0)} ms`);
console.log(`scan share of the cold build: ${((withHints.ms / buildMs) * 100).toFixed(1)}%`);
