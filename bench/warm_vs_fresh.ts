/**
 * Random series of edits, renames, copies, moves, fences, CRLF, deletions and option changes
 * (budget, tokenizer, task, focus, view, output folder), with the last document rewritten in place
 * (same size, modification time put back), removed or cut short, its record (`*.doc.json`) edited
 * past its check line, and the cache pruned between builds. Each warm build (the speed layer, texts
 * kept in the pack) is compared byte for byte with a `cache: false` build of the same tree and
 * order memory: the document, the manifest (but for its output's name and the files' `cache`), and
 * the manifest's sha256 against the file written. Prints one line a step; exits 1 on a difference.
 * See bench/README.md, "(eighteenth session, review24)".
 *
 * ```sh
 * deno run -A bench/warm_vs_fresh.ts SEED STEPS [op,op,...]
 * deno run -A bench/warm_vs_fresh.ts 1 25 tamper,edit,record
 * ```
 *
 * @module
 */

import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import { build, defaultPlugins, loadConfig, speedLayer } from "../mod.ts";
import { pruneCache } from "../pipeline/cache.ts";

const seed = Number(Deno.args[0] ?? 1);
const steps = Number(Deno.args[1] ?? 30);
const only = Deno.args[2]; // restrict ops
let s = seed >>> 0 || 1;
const rnd = () => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32);
const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];

const root = await Deno.makeTempDir({ prefix: `f${seed}_` });
const files = new Map<string, string>();
const words = ["plain", "é ü ß — ‘q’", "日本語", "🙂🚀", "```", "````", "\r\n", "~~~"];
function text(n: number) {
  const w = pick(words);
  return Array.from(
    { length: 20 + Math.floor(rnd() * 120) },
    (_, j) => `x${j} = "${w} ${n}"  # ${j}\n`,
  ).join("");
}
let cfg: Record<string, unknown> = { files: ["src/**"], defaultView: "full" };
let clock = Date.now() / 1000 - 100000;
async function put(path: string, body: string) {
  const p = join(root, path);
  await Deno.mkdir(dirname(p), { recursive: true });
  await Deno.writeTextFile(p, body);
  files.set(path, body);
  clock += 1.5;
  await Deno.utime(p, clock, clock);
}
async function writeCfg() {
  await Deno.writeTextFile(
    join(root, "slop.config.ts"),
    `export default ${JSON.stringify(cfg)};\n`,
  );
  const p = join(root, "slop.config.ts");
  clock += 1.5;
  await Deno.utime(p, clock, clock);
}
for (let i = 0; i < 10; i++) await put(`src/m${i}.py`, text(i));
await writeCfg();

const state = join(root, ".state");
let lastDoc: string | undefined;
let n = 0;
const ops: Record<string, () => Promise<string>> = {
  edit: async () => {
    const f = pick([...files.keys()]);
    await put(f, text(n++));
    return `edit ${f}`;
  },
  rename: async () => {
    const f = pick([...files.keys()]);
    const to = `src/r${n++}.py`;
    await Deno.rename(join(root, f), join(root, to));
    files.set(to, files.get(f)!);
    files.delete(f);
    return `rename ${f} ${to}`;
  },
  copy: async () => {
    const f = pick([...files.keys()]);
    const to = `src/c${n++}.py`;
    await put(to, files.get(f)!);
    return `copy ${f} ${to}`;
  },
  move: async () => {
    const f = pick([...files.keys()]);
    const to = `src/d${n++}/${f.split("/").pop()}`;
    await put(to, files.get(f)!);
    await Deno.remove(join(root, f));
    files.delete(f);
    return `move ${f} ${to}`;
  },
  fence: async () => {
    const f = pick([...files.keys()]);
    await put(f, files.get(f)! + "```\n" + "`".repeat(3 + Math.floor(rnd() * 4)) + "\n");
    return `fence ${f}`;
  },
  crlf: async () => {
    const f = pick([...files.keys()]);
    const t = files.get(f)!;
    await put(f, t.includes("\r\n") ? t.replaceAll("\r\n", "\n") : t.replaceAll("\n", "\r\n"));
    return `crlf ${f}`;
  },
  del: async () => {
    if (files.size < 3) return "noop";
    const f = pick([...files.keys()]);
    await Deno.remove(join(root, f));
    files.delete(f);
    return `del ${f}`;
  },
  budget: async () => {
    cfg = {
      ...cfg,
      budget: { ...(cfg.budget as object ?? {}), tokens: pick([undefined, 3000, 8000, 20000]) },
    };
    await writeCfg();
    return `budget ${JSON.stringify(cfg.budget)}`;
  },
  task: async () => {
    cfg = { ...cfg, task: pick([undefined, "fix m3", "refactor the parser"]) };
    await writeCfg();
    return `task ${cfg.task}`;
  },
  focus: async () => {
    cfg = { ...cfg, focus: pick([undefined, ["src/m1.py"], ["src/m2.py", "src/m5.py"]]) };
    await writeCfg();
    return `focus ${JSON.stringify(cfg.focus)}`;
  },
  tokenizer: async () => {
    cfg = {
      ...cfg,
      budget: { ...(cfg.budget as object ?? {}), tokenizer: pick([undefined, "cl100k", "o200k"]) },
    };
    await writeCfg();
    return `tokenizer ${JSON.stringify(cfg.budget)}`;
  },
  view: async () => {
    cfg = { ...cfg, defaultView: pick(["full", "skeleton", "full"]) };
    await writeCfg();
    return `view ${cfg.defaultView}`;
  },
  outdir: async () => {
    cfg = { ...cfg, output: { dir: pick([".state/out", "out2", "o3/x"]) } };
    await writeCfg();
    return `outdir ${JSON.stringify(cfg.output)}`;
  },
  prune: async () => {
    const r = await pruneCache(join(state, "cache"), pick([1, 20000, 200000]));
    return `prune ${JSON.stringify(r)}`;
  },
  rmdoc: async () => {
    if (!lastDoc) return "noop";
    await Deno.remove(lastDoc);
    return "rmdoc";
  },
  truncdoc: async () => {
    if (!lastDoc) return "noop";
    const st = await Deno.stat(lastDoc);
    await Deno.truncate(lastDoc, Math.floor(st.size / 2));
    return "truncdoc";
  },
  tamper: async () => {
    if (!lastDoc) return "noop";
    const st = await Deno.stat(lastDoc);
    const bytes = await Deno.readFile(lastDoc);
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x78) bytes[i] = 0x79; // x -> y, same size
    using f = await Deno.open(lastDoc, { write: true });
    await f.write(bytes);
    await Deno.utime(lastDoc, st.atime!, st.mtime!);
    return `tamper ${lastDoc}`;
  },
  record: async () => {
    const dir = state;
    const recs: string[] = [];
    for await (const e of walk(dir)) if (e.endsWith(".doc.json")) recs.push(e);
    if (!recs.length) return "noop";
    const r = pick(recs);
    const raw = await Deno.readTextFile(r);
    const nl = raw.indexOf("\n");
    const head = nl === 64 ? raw.slice(0, 65) : "";
    const data = JSON.parse(raw.slice(head.length));
    const kind = pick(["swaphash", "badname", "dropnames", "shortlen"]);
    if (kind === "swaphash" && data.hashes.length > 2) {
      const t = data.hashes[1];
      data.hashes[1] = data.hashes[2];
      data.hashes[2] = t;
    }
    if (kind === "badname" && data.names) {
      data.names = data.names.map((x: string) => x ? "zz" + x : x);
    }
    if (kind === "dropnames") delete data.names;
    if (kind === "shortlen" && data.lengths) data.lengths = data.lengths.map((l: number) => l + 1);
    await Deno.writeTextFile(r, head + JSON.stringify(data));
    return `record ${kind}`;
  },
};
async function* walk(d: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(d)) {
    const p = join(d, e.name);
    if (e.isDirectory) yield* walk(p);
    else yield p;
  }
}
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
async function once(stateDir: string, cache: boolean) {
  const config = await loadConfig({ cwd: root, stateDir });
  if (!cache) config.cache.enabled = false;
  return await build(config, { builtins: defaultPlugins(), layer: speedLayer({ spillAfter: 0 }) });
}
let bad = 0;
const names = only ? only.split(",") : Object.keys(ops);
for (let step = 0; step <= steps; step++) {
  const what = step === 0 ? "cold" : await ops[pick(names)]();
  const warm = await once(state, true);
  const fresh = join(root, `.fresh${step}`);
  await Deno.mkdir(join(fresh, "order"), { recursive: true });
  for await (const e of Deno.readDir(join(state, "order"))) {
    await Deno.copyFile(join(state, "order", e.name), join(fresh, "order", e.name));
  }
  const cold = await once(fresh, false);
  const wdoc = await Deno.readFile(warm.output!.document);
  const problems: string[] = [];
  if (warm.document !== cold.document) problems.push("document text differs");
  if (sha(wdoc) !== sha(new TextEncoder().encode(cold.document))) {
    problems.push("written document differs");
  }
  if (warm.manifest.total.sha256 !== sha(wdoc)) {
    problems.push(
      `manifest total ${warm.manifest.total.sha256.slice(0, 8)} != file ${sha(wdoc).slice(0, 8)}`,
    );
  }
  if (JSON.stringify(warm.manifest.blocks) !== JSON.stringify(cold.manifest.blocks)) {
    problems.push("blocks differ");
  }
  if (JSON.stringify(warm.manifest.prefix) !== JSON.stringify(cold.manifest.prefix)) {
    problems.push("prefix differs");
  }
  const strip = (m: typeof warm.manifest) =>
    JSON.stringify({ ...m, output: "", files: m.files.map((f) => ({ ...f, cache: undefined })) });
  if (strip(warm.manifest) !== strip(cold.manifest)) problems.push("manifest differs");
  console.log(`${seed}:${step} ${what} -> ${problems.join("; ") || "ok"}`);
  if (problems.length) bad++;
  await Deno.remove(fresh, { recursive: true });
  lastDoc = warm.output!.document;
}
if (!bad) await Deno.remove(root, { recursive: true });
else console.log("kept", root);
Deno.exit(bad ? 1 : 0);
