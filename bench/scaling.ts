/**
 * `deno task bench:scaling`: how each build stage grows with the size of one file of an odd
 * shape (`benc./shapes.ts`: equal-width letter lines, minified JS, one huge word, deep
 * nesting, tiny lines, FASTA, a SQL dump, CSV, a log, PEM certificates). For each shape, size
 * and view (`full`, `skeleton`), a real `slop build --timings` runs in its own process on a
 * project holding that one file (cache off, so every stage works); the table gives each stage's
 * time and the ratio of its time at 4x and 16x the smallest size (linear: about 4 and 16).
 *
 * ```sh
 * deno task bench:scaling [--sizes 1,4,16] [--only fasta,log] [--views full,skeleton] [--timeout 300]
 * ```
 *
 * Sizes are in MB; a build over `--timeout` seconds is stopped and shown as `>N s`.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { SHAPES } from "./shapes.ts";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");
const MB = 1024 * 1024;
/** Stages worth a column (the rest are summed into `other`). */
const STAGES = ["read", "secrets", "transform", "compose", "count", "emit"];

interface Args {
  sizes: number[];
  only?: string[];
  views: string[];
  timeout: number;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { sizes: [1, 4, 16], views: ["full", "skeleton"], timeout: 300 };
  const list = (i: number) => (argv[i] ?? "").split(",").filter(Boolean);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--sizes") args.sizes = list(++i).map(Number);
    else if (argv[i] === "--only") args.only = list(++i);
    else if (argv[i] === "--views") args.views = list(++i);
    else if (argv[i] === "--timeout") args.timeout = Number(argv[++i]);
    else {
      throw new Error(
        `[bench] Unknown argument "${argv[i]}": expected --sizes, --only, --views or --timeout`,
      );
    }
  }
  if (!args.sizes.length || args.sizes.some((s) => !(s > 0))) {
    throw new Error(`[bench] Invalid --sizes: expected sizes in MB such as "1,4,16"`);
  }
  const unknown = args.only?.find((name) => !SHAPES.some((s) => s.name === name));
  if (unknown) {
    throw new Error(
      `[bench] Unknown shape "${unknown}": expected ${SHAPES.map((s) => s.name).join(", ")}`,
    );
  }
  return args;
}

/** One build: the stage times (ms) from `--timings`, or undefined when it timed out. */
interface Run {
  stages?: Map<string, number>;
  manifestNote?: string;
  seconds: number;
}

async function runBuild(dir: string, timeout: number): Promise<Run> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--v8-flags=--max-semi-space-size=4,--no-turbofan",
      join(REPO, "cli.ts"),
      "build",
      "--timings",
      "--json",
      "--config",
      join(dir, "slop.config.ts"),
    ],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const start = performance.now();
  const timer = setTimeout(() => child.kill("SIGKILL"), timeout * 1000);
  const out = await child.output();
  clearTimeout(timer);
  const seconds = (performance.now() - start) / 1000;
  if (!out.success) {
    if (seconds >= timeout) return { seconds };
    throw new Error(`[bench] Build in "${dir}" failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  const stages = new Map<string, number>();
  for (const line of new TextDecoder().decode(out.stderr).split("\n")) {
    const m = /^ {2}(\S+)\s+([\d.]+) ms/.exec(line);
    if (m && m[1] !== "total") stages.set(m[1], Number(m[2]));
  }
  const manifest = JSON.parse(new TextDecoder().decode(out.stdout));
  const file = manifest.files.find((f: { path: string }) => !f.path.startsWith("slop."));
  const manifestNote = file?.fallback ? `fell back: ${file.fallback}` : file?.view;
  return { stages, manifestNote, seconds };
}

function cell(ms: number | undefined): string {
  return ms === undefined ? "—" : ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)}`;
}

function ratio(big: number | undefined, small: number | undefined): string {
  if (big === undefined || small === undefined) return "—";
  // Stages under 5 ms are noise: their ratio says nothing.
  if (big < 5 && small < 5) return "~";
  return (big / Math.max(small, 1)).toFixed(1);
}

async function main(): Promise<void> {
  const args = parseArgs(Deno.args);
  const shapes = SHAPES.filter((s) => !args.only || args.only.includes(s.name));
  const rows: string[] = [];
  const header = `| shape | view | MB | ${STAGES.join(" | ")} | other | total s | view used |`;
  rows.push(header, header.replace(/[^|]+/g, (c) => "-".repeat(Math.max(3, c.length))));
  const growth: string[] = [];
  for (const shape of shapes) {
    for (const view of args.views) {
      const runs: Run[] = [];
      for (const size of args.sizes) {
        const dir = await Deno.makeTempDir({ prefix: `slop_scaling_${shape.name}_` });
        try {
          await Deno.writeTextFile(join(dir, shape.file), shape.make(size * MB));
          await Deno.writeTextFile(
            join(dir, "slop.config.ts"),
            `export default ${
              JSON.stringify({
                files: [shape.file],
                defaultView: view,
                maxFileSize: 64 * MB,
                cache: { enabled: false },
              })
            };\n`,
          );
          const run = await runBuild(dir, args.timeout);
          runs.push(run);
          const stage = (name: string) => run.stages?.get(name);
          const other = run.stages
            ? [...run.stages].filter(([k]) => !STAGES.includes(k) && k !== "startup")
              .reduce((n, [, ms]) => n + ms, 0)
            : undefined;
          rows.push(
            `| ${shape.name} | ${view} | ${size} | ${
              STAGES.map((s) => cell(stage(s))).join(" | ")
            } | ${cell(other)} | ${run.stages ? run.seconds.toFixed(1) : `>${args.timeout} s`} | ${
              run.manifestNote ?? "—"
            } |`,
          );
          console.error(rows[rows.length - 1]);
        } finally {
          await Deno.remove(dir, { recursive: true });
        }
      }
      const first = runs[0]?.stages;
      const ratios = args.sizes.slice(1).map((size, k) => {
        const later = runs[k + 1]?.stages;
        const per = STAGES.map((s) => `${s} ${ratio(later?.get(s), first?.get(s))}`);
        return `x${size / args.sizes[0]}: ${per.join(", ")}`;
      });
      growth.push(`- ${shape.name} / ${view}: ${ratios.join("; ")}`);
    }
  }
  console.log(rows.join("\n"));
  console.log("\nGrowth of each stage's time against the smallest size:\n");
  console.log(growth.join("\n"));
}

if (import.meta.main) await main();
