// docs/ci.md against action.yml: the inputs and outputs tables list the action's, with its
// defaults; every workflow step that runs slop's action gives it only inputs it declares and reads
// only outputs it declares; the step taken from GitHub names a tag of slop's version.
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO } from "../_helpers.ts";
import { page, table } from "./_docs.ts";

const ACTION = await Deno.readTextFile(join(REPO, "action.yml"));
const VERSION: string = JSON.parse(await Deno.readTextFile(join(REPO, "deno.json"))).version;

/** The keys of the top-level `name:` mapping of action.yml, each with its `default:` if any. */
function declared(name: string): Map<string, string | undefined> {
  const start = ACTION.indexOf(`\n${name}:\n`);
  assert.ok(start >= 0, `action.yml has ${name}`);
  const rest = ACTION.slice(start + name.length + 3);
  const body = rest.slice(0, rest.search(/\n[a-z]/) + 1);
  const keys = new Map<string, string | undefined>();
  let key = "";
  for (const line of body.split("\n")) {
    const own = line.match(/^ {2}([a-z-]+):\s*$/);
    if (own) keys.set(key = own[1], undefined);
    const given = line.match(/^ {4}default:\s*(.*)$/);
    if (given) keys.set(key, given[1].replace(/^"(.*)"$/, "$1"));
  }
  return keys;
}

const INPUTS = declared("inputs");
const OUTPUTS = declared("outputs");
const ci = page("docs/ci.md");

Deno.test("docs/ci.md's inputs table is action.yml's inputs, with their defaults", () => {
  const rows = table(ci, ["Input", "Default", "What it does"]);
  const shown = rows.map(([name, value]) => [name.replaceAll("`", ""), value.replaceAll("`", "")]);
  const actual = [...INPUTS].map(([name, value]) => [name, value ? value : "(none)"]);
  assert.deepEqual(shown, actual);
});

Deno.test("docs/ci.md's outputs table is action.yml's outputs", () => {
  const rows = table(ci, ["Output", "What it holds"]);
  assert.deepEqual(rows.map(([name]) => name.replaceAll("`", "")), [...OUTPUTS.keys()]);
});

Deno.test("docs/ci.md's workflow steps give slop's action its inputs and read its outputs", () => {
  const blocks = ci.doc.fences.filter((f) => f.info === "yaml" && /uses: \S*slop/.test(f.body));
  const uses: string[] = [];
  for (const block of blocks) {
    const steps = block.body.split(/\n(?= *- )/);
    const ids = new Set<string>();
    for (const step of steps) {
      const used = step.match(/^ *(?:- )?uses: (\S*slop\S*)$/m)?.[1];
      if (!used) continue;
      uses.push(used);
      const id = step.match(/^ *id: (\S+)$/m)?.[1];
      if (id) ids.add(id);
      // The keys under the step's `with:`, one level deeper than it.
      const within = step.match(/^( *)with:\n((?:\1 {2}.*\n?)*)/m);
      for (const line of within?.[2].split("\n").filter(Boolean) ?? []) {
        const key = line.trim().split(":")[0];
        assert.ok(INPUTS.has(key), `line ${block.line}: "${key}" is no input of action.yml`);
      }
    }
    for (const [, id, output] of block.body.matchAll(/steps\.([\w-]+)\.outputs\.([\w-]+)/g)) {
      assert.ok(ids.has(id), `line ${block.line}: step "${id}" is no step of slop's action`);
      assert.ok(OUTPUTS.has(output), `line ${block.line}: "${output}" is no output of action.yml`);
    }
  }
  // The submodule's folder, and slop's repository on GitHub at a tag of this version.
  assert.deepEqual(uses, ["./slop", `OWNER/slop@v${VERSION}`]);
  assert.ok(
    ci.text.includes(`\`v${VERSION}\` is the tag of a release`),
    "the tag named in the text",
  );
});
