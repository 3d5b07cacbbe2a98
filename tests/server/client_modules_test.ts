// A `slop build --server` client loads none of the pipeline: what it loads before it hands its
// build over is Deno's start plus a dozen small modules. Two imports of `pipeline/helpers.ts`
// (for a byte join and a constant) and one of `cli/_flags.ts` had brought 88 modules into every
// client, `node:crypto` and `npm:web-tree-sitter` among them: 50-70 ms more CPU a warm build
// (bench/README.md, "The build server's warm answer"). Counted from Deno's module graph, not timed.
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * The modules a client loads: `cli.ts`, then what `cli/_main.ts` loads for `build --server` (the
 * files its output goes to, then the client), each with its static imports. Dynamic imports are
 * left out: the client makes one only for a task (`--task`, `--task-file`).
 */
const ENTRIES = ["cli.ts", "cli/_main.ts", "cli/_output_fds.ts", "cli/_client.ts"];

interface InfoModule {
  specifier: string;
  dependencies?: Array<{ code?: { specifier?: string }; isDynamic?: boolean }>;
}

/** The specifiers `entry` loads with its static imports, from `deno info --json`. */
async function staticGraph(entry: string): Promise<Map<string, string[]>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", join(REPO, entry)],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    modules: InfoModule[];
    redirects?: Record<string, string>;
  };
  const imports = new Map<string, string[]>();
  for (const module of info.modules) {
    const code = (module.dependencies ?? []).filter((d) => !d.isDynamic && d.code?.specifier);
    imports.set(
      module.specifier,
      code.map((d) => info.redirects?.[d.code!.specifier!] ?? d.code!.specifier!),
    );
  }
  const loaded = new Map<string, string[]>();
  const stack = [...info.roots];
  while (stack.length) {
    const specifier = stack.pop()!;
    if (loaded.has(specifier)) continue;
    const next = imports.get(specifier) ?? [];
    loaded.set(specifier, next);
    stack.push(...next);
  }
  return loaded;
}

Deno.test("a build server's client loads none of the pipeline: no node or npm module, no pipeline module that imports", async () => {
  const loaded = new Map<string, string[]>();
  for (const entry of ENTRIES) for (const [k, v] of await staticGraph(entry)) loaded.set(k, v);
  const repo = new URL(`file://${REPO}/`).href;
  const names = [...loaded.keys()].map((s) => s.startsWith(repo) ? s.slice(repo.length) : s).sort();
  assert.deepEqual(names.filter((n) => /^(node|npm|jsr|https?):/.test(n)), [], names.join(" "));
  // A module of the pipeline may be loaded only when it imports nothing (a constant, a helper).
  const heavy = [...loaded].filter(([s, deps]) => s.startsWith(`${repo}pipeline/`) && deps.length);
  assert.deepEqual(heavy.map(([s]) => s.slice(repo.length)), []);
  assert.ok(names.length <= 16, `the client loads ${names.length} modules: ${names.join(" ")}`);
});
