/**
 * How much of a zero-config document is data: each repository (a git folder, e.g. a mirror) is
 * cloned to a temp folder and built with no config by the slop of `SLOP` (default: this tree's
 * `cli.ts`); the manifest's file blocks are then sorted into data (JSON, YAML, CSV, TSV, XML,
 * NDJSON, snapshots, SVG, locale files, plain text and schemas) and the rest, with the data files' sizes and views. See
 * bench/README.md, "Data files summarized by default".
 *
 * ```sh
 * deno run -A bench/data_files.ts /work/.mirror/wagtail+bakerydemo/repo /work/.mirror/stripe+openapi/repo
 * ```
 *
 * @module
 */

const join = (...parts: string[]) => parts.join("/");

/** The kinds of data file by ending, as the table counts them. */
const KINDS: Array<[string, RegExp]> = [
  ["snapshot", /(?:\.snap|\/__snapshots__\/[^/]+)$/i],
  ["locale", /(?:^|\/)(?:locales?|i18n|lang|translations?)\/.*\.(?:json|ya?ml|po)$|\.pot?$/i],
  ["json", /\.(?:json|geojson|jsonl|ndjson|har)$/i],
  ["yaml", /\.ya?ml$/i],
  ["csv", /\.(?:csv|tsv|psv)$/i],
  ["xml", /\.xml$/i],
  ["svg", /\.svg$/i],
  ["text", /\.(?:txt|text|rsp|req|log|dat|vec|graphqls?|gql)$/i],
];

function kindOf(path: string): string | undefined {
  return KINDS.find(([, re]) => re.test(path))?.[0];
}

interface Row {
  path: string;
  bytes: number;
  tokens: number;
  view: string;
  kind?: string;
}

const slop = Deno.env.get("SLOP") ?? new URL("../cli.ts", import.meta.url).pathname;
const kb = (n: number) => `${Math.round(n / 1024)} KB`;

for (const repo of Deno.args) {
  const name = repo.replace(/\/repo$/, "").split("/").pop()!;
  const dir = await Deno.makeTempDir({ prefix: "slop_data_" });
  const work = join(dir, name);
  await new Deno.Command("git", { args: ["clone", "-q", repo, work] }).output();
  const state = join(dir, "state");
  const built = await new Deno.Command("deno", {
    args: ["run", "-A", slop, "build", "--no-server", "--state-dir", state],
    cwd: work,
    env: { CI: "true", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const summary = new TextDecoder().decode(built.stderr) + new TextDecoder().decode(built.stdout);
  const manifestPath = [...Deno.readDirSync(join(state, "out"))].map((e) => e.name)
    .filter((n) => n.endsWith(".json")).sort().pop();
  if (!manifestPath) {
    console.log(`${name}: no manifest\n${summary}`);
    continue;
  }
  const manifest = JSON.parse(Deno.readTextFileSync(join(state, "out", manifestPath)));
  const tokens = new Map<string, number>();
  for (const b of manifest.blocks) {
    if (b.id.startsWith("files:")) tokens.set(b.id.slice(6), b.tokens);
  }
  const rows: Row[] = manifest.files.filter((f: { status: string }) => f.status === "rendered")
    .map((f: { path: string; bytes: number; view: string }) => ({
      path: f.path,
      bytes: f.bytes,
      tokens: tokens.get(f.path) ?? 0,
      view: f.view,
      kind: kindOf(f.path),
    }));
  const data = rows.filter((r) => r.kind);
  const sum = (rs: Row[]) => rs.reduce((n, r) => n + r.tokens, 0);
  const over = (limit: number) => data.filter((r) => r.kind !== "svg" && r.bytes > limit);
  const share = (n: number) => `${(100 * n / manifest.total.tokens).toFixed(1)}%`;
  const byKind = KINDS.map(([k]) => [k, sum(data.filter((r) => r.kind === k))] as const)
    .filter(([, n]) => n).map(([k, n]) => `${k} ${n}`).join(", ");
  console.log(
    `${name}: ${rows.length} rendered, document ${manifest.total.tokens} tokens; data ${data.length} files, ` +
      `${sum(data)} tokens (${share(sum(data))}: ${byKind})`,
  );
  for (const limit of [16, 32, 64, 128]) {
    const o = over(limit * 1024);
    console.log(
      `  non-SVG data over ${limit} KB: ${o.length} files, ${sum(o)} tokens (${share(sum(o))})`,
    );
  }
  for (const r of data.sort((a, b) => b.tokens - a.tokens).slice(0, 6)) {
    console.log(`  ${r.path} ${kb(r.bytes)} ${r.tokens} tokens (${r.view})`);
  }
  const top = Number(Deno.env.get("TOP") ?? 0);
  for (const r of rows.sort((a, b) => b.tokens - a.tokens).slice(0, top)) {
    console.log(`  top: ${r.path} ${kb(r.bytes)} ${r.tokens} tokens (${r.view})`);
  }
  if (top) {
    const byEnding = new Map<string, [number, number]>();
    for (const r of rows) {
      const name = r.path.slice(r.path.lastIndexOf("/") + 1);
      const ending = name.includes(".") ? name.slice(name.lastIndexOf(".")) : name;
      const [n, t] = byEnding.get(ending) ?? [0, 0];
      byEnding.set(ending, [n + 1, t + r.tokens]);
    }
    const endings = [...byEnding].sort((a, b) => b[1][1] - a[1][1]).slice(0, 12);
    console.log(`  endings: ${endings.map(([e, [n, t]]) => `${e} ${n} ${t}`).join(", ")}`);
  }
  const summarized = summary.split("\n").filter((l) =>
    /summarized|too large|budget|prefix/.test(l)
  );
  for (const l of summarized) console.log(`  | ${l.trim()}`);
  await Deno.remove(dir, { recursive: true });
}
