// A file whose text holds Unicode's bidirectional embedding, override or isolate controls
// (U+202A to U+202E, U+2066 to U+2069: "Trojan Source", CVE-2021-42574) is shown as it is, and
// noted: in its manifest entry, in a line before its text in the document (markdown, XML and
// JSON), and in the build summary; the same cold, warm, with the speed layer, with its texts kept
// in the cache's pack and in a resident process. The marks (U+200E, U+200F, U+061C), which text
// in Arabic or Hebrew uses, are not noted. (Such a file was shown without a word.)
import assert from "node:assert/strict";
import { build, defaultPlugins, loadConfig, speedLayer } from "../../mod.ts";
import { resident } from "../../accel/resident.ts";
import { summaryText } from "../../cli/build.ts";
import { bidiControlBytes, bidiControls } from "../../pipeline/bidi_controls.ts";
import { makeProject } from "../_helpers.ts";

const RLO = "\u202e";
const [LRI, PDI] = ["\u2066", "\u2069"];

// Over 1 KB each, so that the speed layer keeps their texts out of memory (`spillAfter: 0`).
const filler = "// padding line of the file\n".repeat(60);
const tree = {
  "src/access.js":
    `let isAdmin = false;\n/*${RLO} } ${LRI}if (isAdmin)${PDI} ${LRI} begin admins only */\n` +
    filler,
  "src/one.py": `${filler}s = "user${RLO}"  # one\n`,
  "docs/hebrew.md": `# שלום\n\nשלום \u200f world \u200e and \u061c.\n${filler}`,
  "src/plain.ts": `export const a = "“quoted” — dash";\n${filler}`,
};

const NOTE_ACCESS =
  "4 bidirectional control characters (U+202E, U+2066, U+2069), the first on line 2: a viewer " +
  "may show the text around them in another order than a compiler reads it (Trojan Source); " +
  "shown as they are";

Deno.test("bidirectional controls are noted in the manifest, the document and the summary, the same cold, warm, packed and resident", async () => {
  const root = await makeProject(tree);
  const kept = resident();
  const layers = [
    undefined,
    undefined,
    speedLayer(),
    speedLayer({ spillAfter: 0 }),
    speedLayer({ spillAfter: 0 }),
    speedLayer({ spillAfter: 0, resident: kept }),
    speedLayer({ spillAfter: 0, resident: kept }),
  ];
  const seen: string[] = [];
  for (const [i, layer] of layers.entries()) {
    const config = await loadConfig({ cwd: root });
    const result = await build(config, { builtins: defaultPlugins(), write: false, layer });
    const notes = Object.fromEntries(result.manifest.files.map((f) => [f.path, f.notes ?? []]));
    seen.push(JSON.stringify({ document: result.document, notes }));
    assert.equal(seen[i], seen[0], `build ${i} is the cold build`);
    if (i > 0) continue;
    assert.deepEqual(notes["src/access.js"], [NOTE_ACCESS]);
    assert.match(
      notes["src/one.py"].join(),
      /^1 bidirectional control character \(U\+202E\), on line 61:/,
    );
    assert.deepEqual(notes["docs/hebrew.md"], []);
    assert.deepEqual(notes["src/plain.ts"], []);
    assert.ok(
      result.document.includes(`### src/access.js\n\n(${NOTE_ACCESS})\n\n\`\`\`js\nlet isAdmin`),
      "the note is a paragraph between the heading and the fence",
    );
    assert.ok(result.document.includes(`${LRI}if (isAdmin)${PDI}`), "the text is as on disk");
    assert.ok(result.document.includes("### docs/hebrew.md\n\n```markdown\n"));
    assert.match(
      summaryText(result),
      /\nbidi controls: 2 files \(src\/access\.js, src\/one\.py\) hold bidirectional control characters, /,
    );
  }
  await kept.close();
});

Deno.test("a view's text is noted by what it shows, and the XML and JSON formats carry the note", async () => {
  const root = await makeProject(tree);
  const formats: Array<["xml" | "json", string]> = [
    ["xml", `<view>full</view>\n<note>${NOTE_ACCESS}</note>\n<document_content>\nlet isAdmin`],
    ["json", `"language":"js","note":${JSON.stringify(NOTE_ACCESS)},"content":"let isAdmin`],
  ];
  for (const [format, expected] of formats) {
    const config = await loadConfig({ cwd: root, inline: { output: { format } } });
    const result = await build(config, { builtins: defaultPlugins(), write: false });
    assert.ok(result.document.includes(expected), format);
    assert.equal(result.document.split(" bidirectional control character").length, 3, format);
  }
  // A summary shows none of the comment that held the controls.
  const config = await loadConfig({ cwd: root, inline: { defaultView: "summary" } });
  const result = await build(config, { builtins: defaultPlugins(), write: false });
  const access = result.manifest.files.find((f) => f.path === "src/access.js")!;
  assert.equal(access.view, "summary");
  assert.equal(access.notes, undefined);
});

Deno.test("the controls read from a text's UTF-8 bytes are those read from the text", () => {
  // The controls, their neighbours (U+2029, U+202F, U+2065, U+206A share their first bytes) and
  // characters of every UTF-8 length.
  const alphabet = [
    ..."a\n`é€😀\u2029\u202f\u2065\u206a\u200e\u200f\u061c",
    RLO,
    LRI,
    PDI,
    "\u202a",
  ];
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let n = 0; n < 500; n++) {
    const text = Array.from(
      { length: 1 + Math.floor(random() * 40) },
      () => alphabet[Math.floor(random() * alphabet.length)],
    ).join("");
    const bytes = new TextEncoder().encode(text);
    assert.deepEqual(bidiControlBytes(bytes), bidiControls(text), JSON.stringify(text));
  }
  assert.equal(bidiControls("\u200e\u200f\u061c\u2029\u202f\u2065\u206a"), undefined);
  assert.deepEqual(bidiControls(`a\n\nb${PDI}${RLO}${PDI}`), {
    count: 3,
    codes: [0x202e, 0x2069],
    line: 3,
  });
});
