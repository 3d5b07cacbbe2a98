import assert from "node:assert/strict";
import { join } from "node:path";
import { pythonDefs, recallOf } from "../../bench/_recall.ts";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { pythonStdlib } from "../cache/_cache_helpers.ts";

const FILES = ["abc.py", "contextlib.py", "dataclasses.py", "functools.py", "typing.py", "enum.py"];

Deno.test("skeletonViewMode() keeps every def and class Python's ast finds in real stdlib files, exact and in order", async (t) => {
  const lib = await pythonStdlib();
  if (!lib) {
    console.log("skipped: no python3 on PATH");
    return;
  }
  const paths = FILES.map((f) => join(lib, f));
  const defs = (await pythonDefs(paths))!;
  for (const path of paths) {
    await t.step(path.slice(lib.length + 1), async () => {
      const text = (await Deno.readTextFile(path)).replace(/\r\n?/g, "\n");
      const view = (await renderCode(path, text))!;
      const recall = recallOf(view.text, defs[path]);
      assert.ok(recall.total > 5, `ast found only ${recall.total} definitions`);
      assert.deepEqual(recall.missed, []);
      assert.equal(recall.exact, recall.total);
      assert.ok(view.text.length < text.length * 0.8, "bodies are elided");
    });
  }
});

const COMMENTED = ["dataclasses.py", "aifc.py", "typing.py", "threading.py", "argparse.py"];

Deno.test("outlineViewMode() signatures are Python's ast headers without their comments, in real stdlib files", async (t) => {
  const lib = await pythonStdlib();
  if (!lib) {
    console.log("skipped: no python3 on PATH");
    return;
  }
  const paths = COMMENTED.map((f) => join(lib, f));
  const out = await new Deno.Command("python3", {
    args: [join(import.meta.dirname!, "_py_signatures.py"), ...paths],
    stdout: "piped",
  }).output();
  assert.ok(out.success);
  const truth: Record<string, { defs: PySignature[]; comments: number }> = JSON.parse(
    new TextDecoder().decode(out.stdout),
  );
  let comments = 0;
  for (const path of paths) {
    await t.step(path.slice(lib.length + 1), async () => {
      const text = (await Deno.readTextFile(path)).replace(/\r\n?/g, "\n");
      const view = (await renderCode(path, text))!;
      const signatures = new Map(
        view.symbols.filter((s) =>
          s.kind !== "variable" && s.kind !== "constant" &&
          s.kind !== "attribute"
        ).map((s) => [`${s.line} ${s.qualifiedName}`, s.signature]),
      );
      const { defs } = truth[path];
      assert.ok(defs.length > 20, `ast found only ${defs.length} definitions`);
      for (const def of defs) {
        assert.equal(
          signatures.get(`${def.line} ${def.name}`),
          [...def.decorators.map(decorator), oneLine(def.sig)].join(" "),
          def.name,
        );
      }
      comments += truth[path].comments;
    });
  }
  assert.ok(comments > 100, `only ${comments} comments in the signatures' source`);
});

/** A signature `_py_signatures.py` found. */
interface PySignature {
  name: string;
  line: number;
  sig: string;
  /** Its decorators' source (`@dataclass(frozen=True)`), whitespace collapsed. */
  decorators: string[];
}

/** A decorator as the outline writes it before a signature: over 80 characters, its name and `(...)`. */
function decorator(text: string): string {
  return text.length <= 80 ? text : `${text.slice(0, text.search(/[(\s]|$/))}(...)`;
}

/** A signature as the outline writes it: no space inside brackets, no trailing comma, at most 240 characters. */
function oneLine(sig: string): string {
  const out = sig.replace(/([(<[]) /g, "$1").replace(/,? ([)\]])/g, "$1");
  return out.length > 240 ? `${out.slice(0, 237)}...` : out;
}

Deno.test("skeletonViewMode() shows only lines real stdlib files have, but for its markers (a with block's header included)", async (t) => {
  const lib = await pythonStdlib();
  if (!lib) {
    console.log("skipped: no python3 on PATH");
    return;
  }
  // aifc.py (gone in Python 3.13) imports inside `with warnings.catch_warnings():`.
  const names = [...FILES, "threading.py", "aifc.py"];
  let withHeaders = 0;
  for (const name of names) {
    const path = join(lib, name);
    const text = await Deno.readTextFile(path).catch(() => undefined);
    if (text === undefined) continue;
    await t.step(name, async () => {
      const source = text.replace(/\r\n?/g, "\n");
      const lines = new Set(source.split("\n"));
      const view = (await renderCode(path, source))!;
      for (const line of view.text.split("\n")) {
        if (!line || lines.has(line) || line.endsWith("...")) continue;
        assert.fail(`line ${JSON.stringify(line)} is not in the file`);
      }
      withHeaders += view.text.match(/^\s*with \S.*:$/gm)?.length ?? 0;
    });
  }
  if (await Deno.stat(join(lib, "aifc.py")).catch(() => undefined)) assert.ok(withHeaders > 0);
});
