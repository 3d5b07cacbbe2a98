/**
 * Benchmark corpora and the peer, built on demand into `bench/.cache`:
 * the local python3's standard library (`.py` files, without tests and
 * site-packages), `typescript@5.9.3` lib/ and `zod@4.6.7` src/ unpacked from
 * npm, and `repomix@1.18.1` installed from npm. Each corpus gets its own
 * empty git repository so that both tools see every file (the slop checkout's
 * .gitignore lists bench/.cache).
 *
 * @module
 */

import { dirname, join, relative } from "node:path";
import { existsSync } from "node:fs";

/** A corpus ready to bundle. */
export interface Corpus {
  /** Short name (`python-stdlib`, `typescript-lib`, `zod-src`). */
  name: string;
  /** Where it came from, for the results. */
  source: string;
  /** Absolute folder. */
  dir: string;
  /** Files in it. */
  files: number;
  /** Bytes in it. */
  bytes: number;
}

/** The peer, installed. */
export interface Peer {
  /** `repomix@1.18.1`. */
  name: string;
  /** Absolute path of its bin script (run with node). */
  bin: string;
}

const NPM_CORPORA = [
  { name: "typescript-lib", pkg: "typescript@5.9.3", sub: "lib" },
  { name: "zod-src", pkg: "zod@4.6.7", sub: "src" },
];

/** Version of the peer. */
export const PEER = "repomix@1.18.1";

/**
 * Run a command and return its stdout; throws with its stderr when it fails.
 *
 * @example
 * ```ts
 * import { runCommand } from "./_corpora.ts";
 * // const head = await runCommand("git", ["rev-parse", "HEAD"], repo);
 * ```
 */
export async function runCommand(cmd: string, args: string[], cwd?: string): Promise<string> {
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  const dec = new TextDecoder();
  if (!out.success) {
    throw new Error(`[bench] "${cmd} ${args.join(" ")}" failed: ${dec.decode(out.stderr)}`);
  }
  return dec.decode(out.stdout);
}

/**
 * Build (or reuse) every corpus under `cache`. A corpus that cannot be built
 * (no python3, npm unreachable) is skipped with a message.
 *
 * @example
 * ```ts
 * import { prepareCorpora } from "./_corpora.ts";
 * // const corpora = await prepareCorpora("bench/.cache", console.log);
 * ```
 */
export async function prepareCorpora(
  cache: string,
  log: (message: string) => void,
): Promise<Corpus[]> {
  const out: Corpus[] = [];
  try {
    const py = await pythonStdlib(cache);
    if (py) out.push(py);
  } catch (error) {
    log(`skipped python-stdlib: ${error instanceof Error ? error.message : error}`);
  }
  if (!out.length) log("skipped python-stdlib: no python3 on PATH");
  for (const c of NPM_CORPORA) {
    try {
      out.push(await npmCorpus(cache, c.name, c.pkg, c.sub));
    } catch (error) {
      log(`skipped ${c.name}: ${error instanceof Error ? error.message : error}`);
    }
  }
  return out;
}

/**
 * The `python-stdlib` corpus (built once), or undefined without python3.
 *
 * @example
 * ```ts
 * import { pythonStdlib } from "./_corpora.ts";
 * // const stdlib = await pythonStdlib("bench/.cache");
 * ```
 */
export async function pythonStdlib(cache: string): Promise<Corpus | undefined> {
  let stdlib: string;
  let version: string;
  try {
    const out = await runCommand("python3", [
      "-c",
      "import sys, sysconfig; print(sysconfig.get_paths()['stdlib']); print(sys.version.split()[0])",
    ]);
    [stdlib, version] = out.trim().split("\n");
  } catch {
    return undefined;
  }
  const dir = join(cache, "corpora", `python-stdlib-${version}`);
  if (!existsSync(`${dir}.ready`)) {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    for (const path of await walkFiles(stdlib)) {
      if (!path.endsWith(".py")) continue;
      const rel = relative(stdlib, path);
      if (/(^|\/)(site-packages|test|tests|idle_test|__pycache__)\//.test(rel)) continue;
      await Deno.mkdir(dirname(join(dir, rel)), { recursive: true });
      await Deno.copyFile(path, join(dir, rel));
    }
    await finish(dir);
  }
  return { name: "python-stdlib", source: `python ${version} stdlib`, dir, ...await size(dir) };
}

async function npmCorpus(cache: string, name: string, pkg: string, sub: string): Promise<Corpus> {
  const base = join(cache, "corpora", name);
  const dir = join(base, "package", sub);
  if (!existsSync(`${dir}.ready`)) {
    await Deno.remove(base, { recursive: true }).catch(() => {});
    await Deno.mkdir(base, { recursive: true });
    const tarball = (await runCommand("npm", ["pack", pkg, "--silent", "--pack-destination", base]))
      .trim().split("\n").pop()!;
    await runCommand("tar", ["xzf", join(base, tarball), "-C", base]);
    await finish(dir);
  }
  return { name, source: `${pkg} ${sub}/`, dir, ...await size(dir) };
}

async function finish(dir: string): Promise<void> {
  await runCommand("git", ["init", "-q", dir]);
  // The marker sits beside the corpus, out of both tools' view.
  await Deno.writeTextFile(`${dir}.ready`, "");
}

/**
 * Install the peer into `cache/repomix` (once).
 *
 * @example
 * ```ts
 * import { preparePeer } from "./_corpora.ts";
 * // const peer = await preparePeer("bench/.cache");
 * ```
 */
export async function preparePeer(cache: string): Promise<Peer> {
  const prefix = join(cache, "repomix");
  const bin = join(prefix, "node_modules", "repomix", "bin", "repomix.cjs");
  if (!existsSync(bin)) {
    await Deno.mkdir(prefix, { recursive: true });
    await runCommand("npm", [
      "install",
      "--no-audit",
      "--no-fund",
      "--silent",
      "--prefix",
      prefix,
      PEER,
    ]);
  }
  return { name: PEER, bin };
}

/** Every file under `dir` (no `.git`), sorted. */
export async function walkFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(d: string) {
    for await (const entry of Deno.readDir(d)) {
      if (entry.name === ".git") continue;
      const path = join(d, entry.name);
      if (entry.isDirectory) await walk(path);
      else if (entry.isFile) out.push(path);
    }
  }
  await walk(dir);
  return out.sort();
}

async function size(dir: string): Promise<{ files: number; bytes: number }> {
  const files = await walkFiles(dir);
  let bytes = 0;
  for (const f of files) bytes += (await Deno.stat(f)).size;
  return { files: files.length, bytes };
}
