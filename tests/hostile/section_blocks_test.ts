import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { buildContext } from "../../mod.ts";
import { makeProject } from "../_helpers.ts";

/** A section plugin whose `compose` returns `blocks()`. */
function section(blocks: () => unknown) {
  return { kind: "section" as const, name: "odd", compose: () => blocks() as never };
}

async function build(root: string, blocks: () => unknown) {
  return await buildContext({
    cwd: root,
    inline: { files: ["a.ts"], plugins: [section(blocks)] },
  }, { write: false });
}

const base = { id: "odd", section: "odd", stability: "stable" };

/**
 * A section plugin's blocks with accessors: a getter that throws was slop's own error naming no
 * plugin ("slop: getter"), a Proxy array that throws likewise; a getter that gives another text
 * at each read made the document's bytes differ from the block's hash; `notes`, `source` and
 * `heading` of another type went into the manifest as given (`"notes": "zz"`).
 */
Deno.test("a section's blocks are read once: a throwing getter or proxy, a changing getter, fields of another type", async () => {
  const root = await makeProject({ "a.ts": "export const a = 1;\n" });
  const thrown = {
    "a getter of text that throws": () => [{
      ...base,
      get text(): string {
        throw new Error("getter text");
      },
    }],
    "a getter of id that throws": () => [{
      section: "odd",
      stability: "stable",
      text: "x\n",
      get id(): string {
        throw new Error("getter id");
      },
    }],
    "a proxy array that throws": () =>
      new Proxy([], {
        get(_target, key) {
          if (key === "length") throw new Error("proxy length");
          return undefined;
        },
      }),
  };
  const expected: Record<string, RegExp> = {
    "a getter of text that throws":
      /^\[plugin odd\] Invalid block 0 from "compose": reading it threw: getter text$/,
    "a getter of id that throws":
      /^\[plugin odd\] Invalid block 0 from "compose": reading it threw: getter id$/,
    "a proxy array that throws":
      /^\[plugin odd\] Hook "compose" returned an array that cannot be read: proxy length$/,
  };
  for (const [name, blocks] of Object.entries(thrown)) {
    await assert.rejects(build(root, blocks), (error: Error) => {
      assert.match(error.message, expected[name], name);
      return true;
    });
  }
  const typed: Array<[Record<string, unknown>, string]> = [
    [{ notes: "zz" }, '"notes" must be an array of strings'],
    [{ notes: [5] }, '"notes" must be an array of strings'],
    [{ source: 5 }, '"source" must be a string'],
    [{ heading: "yes" }, '"heading" must be true or false'],
  ];
  for (const [extra, problem] of typed) {
    await assert.rejects(build(root, () => [{ ...base, text: "x\n", ...extra }]), {
      message: `[plugin odd] Invalid block 0 from "compose": ${problem}`,
    });
  }
  // A getter that gives another text at each read: the block is its first text, and its hash is
  // that of its bytes in the document.
  let reads = 0;
  const changing = () => [{
    ...base,
    get text(): string {
      return `read ${++reads}\n\n`;
    },
  }];
  const result = await build(root, changing);
  const block = result.manifest.blocks.find((b) => b.id === "odd")!;
  const bytes = new TextEncoder().encode(result.document).slice(
    block.offset,
    block.offset + block.length,
  );
  assert.equal(new TextDecoder().decode(bytes), "read 1\n\n");
  assert.equal(createHash("sha256").update(bytes).digest("hex"), block.sha256);
  // A class's getters (on its prototype) are read too.
  class Block {
    id = "odd";
    section = "odd";
    stability = "stable";
    get text(): string {
      return "from a class\n\n";
    }
  }
  const fromClass = await build(root, () => [new Block()]);
  assert.ok(fromClass.document.includes("from a class\n"));
});
