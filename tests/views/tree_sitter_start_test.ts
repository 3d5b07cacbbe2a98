import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO, tempDir } from "../_helpers.ts";

/** A script that counts looks at the global `process` while tree-sitter starts and parses. */
const SCRIPT = `
const original = Object.getOwnPropertyDescriptor(globalThis, "process");
let looks = 0;
Object.defineProperty(globalThis, "process", {
  configurable: true,
  enumerable: original.enumerable,
  get() { looks++; return original.get.call(globalThis); },
  set(value) { original.set.call(globalThis, value); },
});
const counting = Object.getOwnPropertyDescriptor(globalThis, "process");
const { parserFor } = await import(${JSON.stringify(join(REPO, "grammars/parser.ts"))});
const parser = await parserFor("python");
const tree = parser.parse("def f(x):\\n    return x\\n");
const after = Object.getOwnPropertyDescriptor(globalThis, "process");
console.log(JSON.stringify({
  looks,
  restored: after.get === counting.get && after.set === counting.set,
  type: tree.rootNode.firstChild.type,
  node: typeof process.versions.node,
}));
`;

Deno.test("parserFor() starts tree-sitter without loading Deno's Node layer, and puts the global process back", async () => {
  const dir = await tempDir();
  const script = join(dir, "start.ts");
  await Deno.writeTextFile(script, SCRIPT);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", script],
    cwd: REPO,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, stderr);
  const seen = JSON.parse(new TextDecoder().decode(out.stdout).trim());
  assert.deepEqual(seen, { looks: 0, restored: true, type: "function_definition", node: "string" });
});
