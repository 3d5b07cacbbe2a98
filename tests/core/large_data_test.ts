// A data file over 32 KB (a fixture, a dataset, a recording, a snapshot file) that the config does
// not name is shown by its shape (`summary`), its reason on its first line and in the manifest's
// notes, with one line of the build summary; shown whole when the config names it (its path, or a
// glob that spells its ending) or gives it a view. Configuration a build or CI reads stays whole at
// any size. A warm build (stat index, resident) gives a cold one's bytes, whichever config came first.
import assert from "node:assert/strict";
import { build, defaultPlugins, loadConfig, type SlopConfig, speedLayer } from "../../mod.ts";
import { resident } from "../../accel/resident.ts";
import { RACY_MS } from "../../accel/stat_index.ts";
import { summaryText } from "../../cli/build.ts";
import {
  DATA_LIMIT,
  dataReason,
  isDataFile,
  plainTextLimit,
  translationReason,
  translationSets,
} from "../../pipeline/data_files.ts";
import { makeProject } from "../_helpers.ts";

const records = Array.from({ length: 500 }, (_, i) => ({
  model: "shop.item",
  pk: i,
  fields: { name: `item ${i}`, price: i * 3 },
}));
const FIXTURE = JSON.stringify(records, null, 2) + "\n";
const CSV = "year,month,births\n" +
  Array.from({ length: 3000 }, (_, i) => `${1969 + (i % 20)},${1 + (i % 12)},${4000 + i}`).join(
    "\n",
  ) +
  "\n";
/** A workflow of more than 32 KB: configuration, shown whole. */
const WORKFLOW = "name: ci\njobs:\n" +
  Array.from({ length: 900 }, (_, i) => `  job${i}:\n    runs-on: ubuntu-latest\n`).join("");

const TREE: Record<string, string> = {
  "src/app.ts": "export const app = 1;\n",
  "fixtures/shop.json": FIXTURE,
  "data/births.csv": CSV,
  ".github/workflows/ci.yml": WORKFLOW,
  "package.json": JSON.stringify({
    name: "x",
    keywords: Array.from({ length: 1500 }, (_, i) => `keyword ${i} of the shop`),
  }),
  "small.json": '{"a": 1}\n',
};

/** A page of prose: a book kept as a test asset reads as prose, line after line. */
const BOOK = "Call me Ishmael. Some years ago, never mind how long precisely, having little money\n"
  .repeat(500);
/** The book's text `n` times (41 KB each). */
const BOOK_PAGES = (n: number) => BOOK.repeat(n);
/** A word list: a test's fake names, one a line. */
const NAMES_LIST = Array.from({ length: 5000 }, (_, i) => `Name${i.toString(36)}`).join("\n") +
  "\n";

const size = (text: string) => new TextEncoder().encode(text).length;

async function built(root: string, inline: SlopConfig | undefined, options: {
  paths?: string[];
  focus?: string[];
  plain?: boolean;
  kept?: ReturnType<typeof resident>;
} = {}) {
  const { paths, focus } = options;
  const config = await loadConfig({ cwd: root, inline, paths, focus });
  const layer = options.plain ? undefined : speedLayer({ resident: options.kept });
  const result = await build(config, { builtins: defaultPlugins(), layer });
  const view = new Map(result.manifest.files.map((f) => [f.path, f.view]));
  const { document, manifest } = result.output!;
  const bytes = [await Deno.readTextFile(document), await Deno.readTextFile(manifest)];
  return { result, view, bytes };
}

Deno.test("a data file over 32 KB is summarized by its shape with its reason; config files stay whole", async () => {
  for (const text of [FIXTURE, CSV, WORKFLOW, TREE["package.json"]]) {
    assert.ok(size(text) > 32 * 1024);
  }
  const root = await makeProject(TREE);
  const { result, view } = await built(root, undefined);
  assert.equal(view.get("fixtures/shop.json"), "summary");
  assert.equal(view.get("data/births.csv"), "summary");
  for (const path of [".github/workflows/ci.yml", "package.json", "small.json", "src/app.ts"]) {
    assert.equal(view.get(path), "full", path);
  }
  const row = result.manifest.files.find((f) => f.path === "fixtures/shop.json")!;
  assert.deepEqual(row.notes, [dataReason(size(FIXTURE))]);
  const doc = result.document;
  assert.ok(doc.includes(`### fixtures/shop.json\n\n(${dataReason(size(FIXTURE))})\n\n**JSON**`));
  assert.match(
    doc,
    /- array of 500 objects with keys `model`, `pk`, `fields`\n- first item: `\{"model":"shop\.item","pk":0/,
  );
  assert.match(
    doc,
    /\*\*CSV\*\*, 3,000 rows under a header\n- columns \(3\): `year`, `month`, `births`\n- `1969,1,4000`/,
  );
  assert.doesNotMatch(doc, /"pk": 499/);
  assert.match(doc, /job899:/);
  assert.match(
    summaryText(result),
    /\nsummarized: 2 data files over 32 KB \(data\/births\.csv, fixtures\/shop\.json\): name them in "files" to show them whole/,
  );
});

Deno.test("a large data file named by its path, a glob that spells its ending, a view or a build path is whole", async () => {
  const root = await makeProject(TREE);
  const byPath = await built(root, { files: ["**", "fixtures/shop.json"] });
  assert.equal(byPath.view.get("fixtures/shop.json"), "full");
  assert.equal(byPath.view.get("data/births.csv"), "summary");
  assert.doesNotMatch(summaryText(byPath.result), /summarized: .*shop/);
  const byGlob = await built(root, { files: ["**", "data/*.csv"] });
  assert.equal(byGlob.view.get("data/births.csv"), "full");
  const byView = await built(root, { files: ["**", { path: "fixtures/**", view: "full" }] });
  assert.equal(byView.view.get("fixtures/shop.json"), "full");
  // A folder or `**` does not name the files in it.
  const byFolder = await built(root, { files: ["fixtures/"] });
  assert.equal(byFolder.view.get("fixtures/shop.json"), "summary");
  const given = await built(root, undefined, { paths: ["fixtures/shop.json"] });
  assert.equal(given.view.get("fixtures/shop.json"), "full");
  assert.match(given.result.document, /"pk": 499/);
  const focused = await built(root, undefined, { focus: ["fixtures/shop.json"] });
  assert.equal(focused.view.get("fixtures/shop.json"), "full");
});

Deno.test("data files and configuration, by path", () => {
  for (
    const path of [
      "a/b.json",
      "x.NDJSON",
      "t/__snapshots__/a.test.ts.snap",
      "d.tsv",
      "r.yaml",
      "s.xml",
      "logo.svg",
      "test/vectors/SigVer15.rsp",
      "schema.graphql",
      "assets/moby10b.txt",
      "priv/fake/first_names.txt",
      "logs/nginx.log",
      // XML data by other endings: CMSIS's device descriptions, GPS tracks, map layers.
      "tools/debug/STM32F405.svd",
      "maps/ride.GPX",
      "maps/places.kml",
    ]
  ) {
    assert.ok(isDataFile(path), path);
  }
  for (
    const path of [
      "package.json",
      "web/tsconfig.build.json",
      ".github/workflows/ci.yml",
      "docker-compose.prod.yml",
      "compose.yaml",
      ".gitlab-ci.yml",
      "pom.xml",
      "src/a.ts",
      "docs/guide.txt",
      "doc/fugitive.txt",
      "CHANGELOG.txt",
      "LICENSE.txt",
      "NOTICE.txt",
      "CMakeLists.txt",
      "requirements-dev.txt",
      "src/schema.sql",
      // Documentation by its name outside a docs folder: the llms.txt convention's two files
      // (written for agents to read whole), an FAQ, a hacking guide, a spec or an RFC.
      "llms.txt",
      "site/llms-full.txt",
      "FAQ.txt",
      "HACKING.txt",
      "ARCHITECTURE.txt",
      "DESIGN.txt",
      "UPGRADE-2.0.txt",
      "spec.txt",
      "rfc/rfc6455.txt",
      "tools/manual.txt",
    ]
  ) {
    assert.ok(!isDataFile(path), path);
  }
});

/**
 * A reference kept as plain text (tmux's `tools/ansicode.txt`): paragraphs of sentences between
 * rows of a table.
 */
const REFERENCE = Array.from(
  { length: 120 },
  (_, i) =>
    `Section ${i}. The terminal reads an escape sequence in the order it is sent, and\n` +
    `a control sequence ends at its final character. Each code below is listed with\n` +
    `the standard that defines it, so a reader can find where it came from.\n\n` +
    `0${i} ${(i * 7).toString(16)}\tCODE${i} - Selects character set ${i} for G0\n` +
    `\tA   G0 only will be used.  Ignore SI, SO, and G1.\n\n`,
).join("");
/** A code generator's list of C signatures (h5py's `api_functions.txt`). */
const SIGNATURES = "hdf5:\n" +
  Array.from(
    { length: 500 },
    (_, i) => `  herr_t    H5Aop${i}(hid_t attr_id, char *name, hid_t type_id, void *buf)`,
  ).join("\n") + "\n";
/** A recorded test output: log lines, words but no sentences. */
const OUTPUT = Array.from(
  { length: 600 },
  (_, i) =>
    `out/test/spec/table_copy.wast:${400 + i}: assert_trap passed: uninitialized table element`,
)
  .join("\n") + "\n";
/** Plain text of each kind, with the view a build with no config gives it. */
const TEXTS: Record<string, { text: string; view: string }> = {
  "tools/ansicode.txt": { text: REFERENCE, view: "full" },
  "h5py/api_functions.txt": { text: SIGNATURES, view: "full" },
  "assets/moby.txt": { text: BOOK_PAGES(1), view: "full" },
  // Prose kept as a test's input (cowboy's ws_perf_SUITE_data, trufflehog's testdata): data.
  "test/ws_perf_SUITE_data/grok.txt": { text: BOOK_PAGES(1), view: "summary" },
  "pkg/handlers/testdata/nonarchive.txt": { text: BOOK_PAGES(1), view: "summary" },
  "assets/moby10b.txt": { text: BOOK_PAGES(7), view: "summary" },
  "test/spec/table_copy.txt": { text: OUTPUT, view: "summary" },
  "priv/fake/names.txt": { text: NAMES_LIST, view: "summary" },
};

Deno.test("plain text over 32 KB by what it holds: prose and code whole (to 256 KB), records summarized", async () => {
  for (const [path, { text }] of Object.entries(TEXTS)) assert.ok(size(text) > 32 * 1024, path);
  assert.ok(size(TEXTS["assets/moby10b.txt"].text) > 256 * 1024);
  const root = await makeProject(
    Object.fromEntries(Object.entries(TEXTS).map(([path, { text }]) => [path, text])),
  );
  const { result, view } = await built(root, undefined);
  for (const [path, kind] of Object.entries(TEXTS)) assert.equal(view.get(path), kind.view, path);
  const book = TEXTS["assets/moby10b.txt"].text;
  // Over 256 KB plain text is summarized whatever it holds, unread for its kind: the reason names
  // that limit (the one that applied; prose is under the 32 KB one).
  assert.ok(result.document.includes(`(${dataReason(size(book), 256 * 1024)})`));
  assert.match(dataReason(size(TEXTS["tools/ansicode.txt"].text), 256 * 1024), /over 256 KB: /);
});

/** `line` once a line, `#` replaced by the line's number. */
const LINES = (line: string, n = 600) =>
  Array.from({ length: n }, (_, i) => line.replaceAll("#", String(i))).join("\n") + "\n";

Deno.test("plain text by what it holds: prose in scripts written without spaces, records with a bracketed note, logs of sentences", () => {
  // Prose in Chinese and Japanese has no space between words: a line is one run of letters and
  // punctuation, prose as much as a European language's.
  const prose = {
    chinese: LINES("这是第#段。我们在这里写了一些中文句子，用来测试程序是否能够识别散文。"),
    japanese: LINES(
      "これは第#段落です。日本語の文章には単語の間に空白がありません。それでも散文です。",
    ),
    german: LINES(
      "Das ist Absatz Nummer #. Wir schreiben hier einige Sätze, um das Programm zu prüfen.",
    ),
  };
  for (const [kind, text] of Object.entries(prose)) {
    assert.ok(size(text) > DATA_LIMIT, kind);
    assert.equal(plainTextLimit(text), 256 * 1024, kind);
  }
  // A list of titles or names with a note in brackets (MovieLens's movie_ids.txt) calls nothing:
  // records, not code; a log is records, its messages sentences or not.
  const records = {
    movies: LINES("# Toy Story (1995)", 3000),
    people: LINES("# John Smith (Acme)", 3000),
    // A log whose messages are sentences: its lines start with a date or a time.
    log: LINES("2024-01-01 12:00:01,# INFO server: Connection accepted. Request handled in # ms."),
    syslog: LINES("Jan  1 12:00:01 host app[#]: The worker restarted after a failure. It is up."),
    bracketed: LINES("[12:00:01] Worker # finished its job. The queue is empty now."),
  };
  for (const [kind, text] of Object.entries(records)) {
    assert.ok(size(text) > DATA_LIMIT, kind);
    assert.equal(plainTextLimit(text), DATA_LIMIT, kind);
  }
});

Deno.test("plain text by what it holds: Thai, Lao, Khmer and Burmese prose (spaces between phrases only) whole, their lists records", () => {
  // No space between words, a space (Thai, Lao) or a mark (Khmer's ។, Burmese's ။) between
  // phrases and sentences: each letter with its marks is a word, as a Chinese character is.
  const prose = {
    thai: LINES("นี่คือย่อหน้าที่ # เราเขียนประโยคภาษาไทยบางประโยคที่นี่ เพื่อทดสอบว่าโปรแกรมรู้จักร้อยแก้ว"),
    lao: LINES("ນີ້ແມ່ນວັກທີ # ພວກເຮົາຂຽນປະໂຫຍກພາສາລາວຢູ່ທີ່ນີ້ ເພື່ອທົດສອບວ່າໂປຣແກຣມຮັບຮູ້ຮ້ອຍແກ້ວ"),
    khmer: LINES("នេះគឺជាកថាខណ្ឌទី # ។ យើងសរសេរប្រយោគភាសាខ្មែរនៅទីនេះ ដើម្បីសាកល្បងកម្មវិធី។"),
    burmese: LINES("ဤသည်မှာ စာပိုဒ် # ဖြစ်သည်။ ပရိုဂရမ်က စကားပြေကို မှတ်မိနိုင်မလား စမ်းသပ်သည်။"),
    chinese: LINES("这是第#段。我们在这里写了一些中文句子，用来测试程序是否能够识别散文。"),
  };
  for (const [kind, text] of Object.entries(prose)) {
    assert.ok(size(text) > DATA_LIMIT, kind);
    assert.equal(plainTextLimit(text), 256 * 1024, kind);
  }
  // A word a line, a table of tab-separated columns: records in these scripts too.
  const records = {
    thaiWords: LINES("คำศัพท์ที่#", 3000),
    khmerWords: LINES("ពាក្យទី#", 3000),
    burmeseWords: LINES("စကားလုံး#", 3000),
    thaiTable: LINES("จังหวัด#\tภาคกลาง\tประชากร#", 2000),
    // Columns between spaces, which Thai and Lao write between phrases: short cells, a number.
    thaiSpacedTable: LINES("ลำพูน ภาคเหนือ เมืองเก่า ตารางกิโลเมตร #", 2000),
    laoSpacedTable: LINES("ວຽງຈັນ ພາກກາງ ນະຄອນຫຼວງ ຄົນ #", 2000),
    thaiWordTable: LINES("ลำพูน ภาคเหนือ เมืองเก่า ตารางกิโลเมตร", 2000),
  };
  for (const [kind, text] of Object.entries(records)) {
    assert.ok(size(text) > DATA_LIMIT, kind);
    assert.equal(plainTextLimit(text), DATA_LIMIT, kind);
  }
});

Deno.test("plain text by what it holds: delimited records whose last field is a sentence are records, verse and prose with commas prose", () => {
  // The same count of tabs, commas (outside quotes), semicolons or pipes on most lines, after a
  // short first field (a key): a table.
  const records = {
    tsv: LINES("#\tpending\tThe worker restarted after a failure. It is up again now."),
    csv: LINES('#,2024,"The parcel arrived late, and the box was open. We sent it back."'),
    semicolons: LINES("#;Smith;The customer asked for a refund. It was granted the same day."),
    pipes: LINES("# | open | The build failed on the main branch. A fix is under review."),
  };
  for (const [kind, text] of Object.entries(records)) {
    assert.ok(size(text) > DATA_LIMIT, kind);
    assert.equal(plainTextLimit(text), DATA_LIMIT, kind);
  }
  // Verse ends its lines with commas; prose has commas, but not after a key on every line.
  const prose = {
    verse: Array.from({ length: 300 }, (_, i) =>
      [
        `Shall I compare thee to a summer's day number ${i},`,
        `Thou art more lovely, and more temperate, by far.`,
        `Rough winds do shake the darling buds of May,`,
        `And summer's lease hath all too short a date.`,
      ].join("\n")).join("\n") + "\n",
    paragraphs: LINES(
      "Part #. We read the letters, one by one, and wrote back. Nobody came; the house was empty.",
    ),
  };
  for (const [kind, text] of Object.entries(prose)) {
    assert.ok(size(text) > DATA_LIMIT, kind);
    assert.equal(plainTextLimit(text), 256 * 1024, kind);
  }
});

Deno.test("a warm build decides on a large data file as the plain stages do, whichever config read it first", async () => {
  const named: SlopConfig = { files: ["**", "**/*.json"] };
  const orders = [[undefined, named], [named, undefined]];
  // Plain text too: its limit is decided by its text, which a warm build may not read.
  const tree = {
    ...TREE,
    "tools/ansicode.txt": REFERENCE,
    "priv/fake/names.txt": NAMES_LIST,
  };
  const copies = await Promise.all(
    orders.map(() => Promise.all([tree, tree].map((t) => makeProject(t)))),
  );
  await new Promise((resolve) => setTimeout(resolve, RACY_MS + 1100));
  for (const [i, order] of orders.entries()) {
    const [plain, fast] = copies[i];
    const kept = resident();
    for (const [n, inline] of [...order, ...order, ...order].entries()) {
      const expected = await built(plain, inline, { plain: true });
      const got = await built(fast, inline, { kept: n >= 4 ? kept : undefined });
      assert.deepEqual(got.bytes, expected.bytes, `build ${n + 1}`);
      assert.equal(got.view.get("fixtures/shop.json"), inline ? "full" : "summary");
      assert.equal(got.view.get("data/births.csv"), "summary");
      assert.equal(got.view.get("tools/ansicode.txt"), "full");
      assert.equal(got.view.get("priv/fake/names.txt"), "summary");
    }
    await kept.close();
  }
});

Deno.test("a large data file the config summarizes anyway (defaultView, a strategy) carries no data reason", async () => {
  const root = await makeProject(TREE);
  for (const inline of [{ defaultView: "summary" }, { strategy: "summarize" }] as SlopConfig[]) {
    const { result, view } = await built(root, inline);
    assert.equal(view.get("fixtures/shop.json"), "summary");
    const row = result.manifest.files.find((f) => f.path === "fixtures/shop.json")!;
    assert.deepEqual(row.notes ?? [], [], JSON.stringify(inline));
    assert.doesNotMatch(result.document, /summarized by default/);
    assert.doesNotMatch(summaryText(result), /\nsummarized: /);
  }
});

const VECTORS = "# CAVS 11.0\n# SigVer\n\n[mod = 1024]\n\n" +
  Array.from({ length: 300 }, (_, i) => `Msg = ${"ab".repeat(60)}${i}\nResult = P\n\n`).join("");
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">\n' +
  Array.from({ length: 1400 }, (_, i) => `  <path d="M${i} 0 L${i} 100 Z"/>`).join("\n") +
  "\n</svg>\n";

Deno.test("large text that is records (test vectors, a word list, an SVG) is summarized; documentation stays whole", async () => {
  for (const text of [BOOK, VECTORS, SVG, NAMES_LIST]) assert.ok(size(text) > 32 * 1024);
  assert.ok(size(SVG) < 64 * 1024);
  const root = await makeProject({
    "test/SigVer.rsp": VECTORS,
    "priv/fake/names.txt": NAMES_LIST,
    "img/chart.svg": SVG,
    "docs/guide.txt": BOOK,
    "CHANGELOG.txt": BOOK,
  });
  const { result, view } = await built(root, undefined);
  for (const path of ["test/SigVer.rsp", "priv/fake/names.txt", "img/chart.svg"]) {
    assert.equal(view.get(path), "summary", path);
  }
  assert.equal(view.get("docs/guide.txt"), "full");
  assert.equal(view.get("CHANGELOG.txt"), "full");
  const doc = result.document;
  assert.ok(
    doc.includes(`### test/SigVer.rsp\n\n(${dataReason(size(VECTORS))})\n\n**Test vectors**`),
  );
  assert.match(doc, /- keys: `Msg × 300`, `Result × 300`/);
  assert.match(doc, /\*\*SVG image\*\*, 1,402 lines, root `svg`\n- size: viewBox `0 0 100 100`/);
  assert.match(summaryText(result), /\nsummarized: 3 data files over 8 or 32 KB/);
  const named = await built(root, { files: ["**", "**/*.rsp", "img/chart.svg"] });
  assert.equal(named.view.get("test/SigVer.rsp"), "full");
  assert.equal(named.view.get("img/chart.svg"), "full");
});

/** A translation of 200 strings in two groups (about 7 KB): under the 32 KB data limit. */
const locale = (lang: string) => {
  const group = (name: string) =>
    Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`${name}${i}`, `${lang} ${i}`]));
  return JSON.stringify({ labels: group("label"), buttons: group("button") }, null, 2) + "\n";
};

Deno.test("sibling translations: English shown whole, the rest summarized with the reason; a pair, a small set or a named set whole", async () => {
  const root = await makeProject({
    "locales/de.json": locale("de"),
    "locales/en.json": locale("en"),
    "locales/pt-BR.json": locale("pt"),
    "web/public/locales/de/common.json": locale("de"),
    "web/public/locales/en-GB/common.json": locale("en"),
    "web/public/locales/fr/common.json": locale("fr"),
    "web/public/locales/ja/common.json": locale("ja"),
    "po/de.po": 'msgid "a"\nmsgstr "b"\n'.repeat(400),
    "po/fr.po": 'msgid "a"\nmsgstr "c"\n'.repeat(400),
    "po/it.po": 'msgid "a"\nmsgstr "d"\n'.repeat(400),
    "pair/lang/de.json": locale("de"),
    "pair/lang/en.json": locale("en"),
    "small/i18n/de.json": '{"a": "b"}\n',
    "small/i18n/en.json": '{"a": "b"}\n',
    "small/i18n/fr.json": '{"a": "b"}\n',
  });
  const { result, view } = await built(root, undefined);
  const summarized = [...view].filter(([, v]) => v === "summary").map(([p]) => p).sort();
  assert.deepEqual(summarized, [
    "locales/de.json",
    "locales/pt-BR.json",
    "po/fr.po",
    "po/it.po",
    "web/public/locales/de/common.json",
    "web/public/locales/fr/common.json",
    "web/public/locales/ja/common.json",
  ]);
  const row = result.manifest.files.find((f) => f.path === "locales/de.json")!;
  assert.deepEqual(row.notes, [translationReason("locales/en.json")]);
  // Its label and keys only: the rest of its shape (each group's keys) is English's.
  assert.ok(
    result.document.includes(
      `### locales/de.json\n\n(${translationReason("locales/en.json")})\n\n**JSON**, 206 lines\n` +
        "- keys: `labels`, `buttons`\n\n",
    ),
  );
  assert.match(
    summaryText(result),
    /\nsummarized: 7 translations, one of each set shown whole \(locales\/de\.json, locales\/pt-BR\.json, po\/fr\.po and 4 more\): name them in "files" to show them whole/,
  );
  const named = await built(root, { files: ["**", "locales/*.json", "**/*.po"] });
  for (const path of ["locales/de.json", "po/fr.po"]) assert.equal(named.view.get(path), "full");
  assert.equal(named.view.get("web/public/locales/ja/common.json"), "summary");
});

Deno.test("translation sets by path: the set's key leaves out one language tag", () => {
  const sets = translationSets([
    "config/locales/en.yml",
    "config/locales/de.yml",
    "config/locales/zh_Hans.yml",
    "app/locale/fr/LC_MESSAGES/django.po",
    "app/locale/de/LC_MESSAGES/django.po",
    "app/locale/en_US/LC_MESSAGES/django.po",
    "src/i18n/messages.json",
    "src/i18n/errors.json",
    "src/i18n/other.json",
    "web/i18n/app.json",
    "web/i18n/api.json",
    "web/i18n/web.json",
    "lang/kab-KAB.json",
    "lang/de.json",
    "lang/en.json",
  ]);
  assert.deepEqual([...sets].sort(), [
    ["app/locale/de/LC_MESSAGES/django.po", "app/locale/en_US/LC_MESSAGES/django.po"],
    ["app/locale/fr/LC_MESSAGES/django.po", "app/locale/en_US/LC_MESSAGES/django.po"],
    ["config/locales/de.yml", "config/locales/en.yml"],
    ["config/locales/zh_Hans.yml", "config/locales/en.yml"],
    ["lang/de.json", "lang/en.json"],
    ["lang/kab-KAB.json", "lang/en.json"],
  ]);
});

Deno.test("gettext catalogs with no English one: their template (.pot) shown whole, else the first by path", () => {
  const sets = translationSets([
    "po/bg.po",
    "po/de.po",
    "po/fr.po",
    "po/app.pot",
    "gui/po/glossary/bg.po",
    "gui/po/glossary/de.po",
    "gui/po/glossary/el.po",
    "gui/po/glossary/gui-glossary.pot",
    "app/locale/de/LC_MESSAGES/django.po",
    "app/locale/fr/LC_MESSAGES/django.po",
    "app/locale/it/LC_MESSAGES/django.po",
    "app/locale/djangojs.pot",
    "app/locale/django.pot",
    "tools/po/ca.po",
    "tools/po/de.po",
    "tools/po/es.po",
    "other/app.pot",
  ]);
  assert.deepEqual([...sets].sort(), [
    ["app/locale/de/LC_MESSAGES/django.po", "app/locale/django.pot"],
    ["app/locale/fr/LC_MESSAGES/django.po", "app/locale/django.pot"],
    ["app/locale/it/LC_MESSAGES/django.po", "app/locale/django.pot"],
    ["gui/po/glossary/bg.po", "gui/po/glossary/gui-glossary.pot"],
    ["gui/po/glossary/de.po", "gui/po/glossary/gui-glossary.pot"],
    ["gui/po/glossary/el.po", "gui/po/glossary/gui-glossary.pot"],
    ["po/bg.po", "po/app.pot"],
    ["po/de.po", "po/app.pot"],
    ["po/fr.po", "po/app.pot"],
    ["tools/po/de.po", "tools/po/ca.po"],
    ["tools/po/es.po", "tools/po/ca.po"],
  ]);
});

Deno.test("a warm build finds a translation set as a cold one does when its English file comes and goes", async () => {
  const tree = {
    "locales/de.json": locale("de"),
    "locales/fr.json": locale("fr"),
    "locales/pt.json": locale("pt"),
  };
  const roots = await Promise.all([makeProject(tree), makeProject(tree)]);
  await new Promise((resolve) => setTimeout(resolve, RACY_MS + 1100));
  const kept = resident();
  const english = "locales/en.json";
  for (const step of ["none", "add", "same", "remove"]) {
    for (const root of roots) {
      if (step === "add") await Deno.writeTextFile(`${root}/${english}`, locale("en"));
      if (step === "remove") await Deno.remove(`${root}/${english}`);
    }
    if (step === "add" || step === "remove") kept.changed([english], true);
    const expected = await built(roots[0], undefined, { plain: true });
    const got = await built(roots[1], undefined, { kept });
    assert.deepEqual(got.bytes, expected.bytes, step);
    const whole = step === "none" || step === "remove";
    assert.equal(got.view.get("locales/de.json"), whole ? "full" : "summary", step);
  }
  await kept.close();
});

Deno.test("the translation a set shows whole is whole over the 32 KB data limit too", async () => {
  /** Over 32 KB in each language: 1,500 strings. */
  const big = (lang: string) =>
    JSON.stringify(
      Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`key${i}`, `${lang} text ${i}`])),
      null,
      2,
    ) + "\n";
  const root = await makeProject({
    "src/lang/de-DE.json": big("de"),
    "src/lang/en.json": big("en"),
    "src/lang/fr.json": big("fr"),
  });
  const { result, view } = await built(root, undefined);
  assert.ok(size(big("en")) > 32 * 1024);
  assert.equal(view.get("src/lang/en.json"), "full");
  assert.equal(view.get("src/lang/fr.json"), "summary");
  assert.ok(result.document.includes(`(${translationReason("src/lang/en.json")})`));
});

Deno.test("translation sets by path: a language folder of files with short names, Rails' devise.en.yml, Flutter's app_en.arb", () => {
  const sets = translationSets([
    "public/locales/en/app.json",
    "public/locales/en/api.json",
    "public/locales/de/app.json",
    "public/locales/de/api.json",
    "public/locales/fr/app.json",
    "config/locales/devise.en.yml",
    "config/locales/devise.de.yml",
    "config/locales/devise.pt-BR.yml",
    "lib/l10n/app_en.arb",
    "lib/l10n/app_de.arb",
    "lib/l10n/app_zh_Hant.arb",
    "src/main/resources/i18n/messages_en.properties",
    "src/main/resources/i18n/messages_fr.properties",
    "src/main/resources/i18n/messages_ja.properties",
  ]);
  assert.deepEqual([...sets].sort(), [
    ["config/locales/devise.de.yml", "config/locales/devise.en.yml"],
    ["config/locales/devise.pt-BR.yml", "config/locales/devise.en.yml"],
    ["lib/l10n/app_de.arb", "lib/l10n/app_en.arb"],
    ["lib/l10n/app_zh_Hant.arb", "lib/l10n/app_en.arb"],
    ["public/locales/de/app.json", "public/locales/en/app.json"],
    ["public/locales/fr/app.json", "public/locales/en/app.json"],
    [
      "src/main/resources/i18n/messages_fr.properties",
      "src/main/resources/i18n/messages_en.properties",
    ],
    [
      "src/main/resources/i18n/messages_ja.properties",
      "src/main/resources/i18n/messages_en.properties",
    ],
  ]);
});

Deno.test("a warm build shows a large English file whole once a third translation makes a set", async () => {
  /** Over 32 KB: 1,500 strings. */
  const big = (lang: string) =>
    JSON.stringify(
      Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`key${i}`, `${lang} text ${i}`])),
      null,
      2,
    ) + "\n";
  const tree = { "locales/en.json": big("en"), "locales/de.json": big("de") };
  const roots = await Promise.all([makeProject(tree), makeProject(tree)]);
  await new Promise((resolve) => setTimeout(resolve, RACY_MS + 1100));
  const kept = resident();
  const added = "locales/fr.json";
  for (const step of ["pair", "set"]) {
    if (step === "set") {
      for (const root of roots) await Deno.writeTextFile(`${root}/${added}`, big("fr"));
      kept.changed([added], true);
    }
    const expected = await built(roots[0], undefined, { plain: true });
    const got = await built(roots[1], undefined, { kept });
    assert.deepEqual(got.bytes, expected.bytes, step);
    assert.equal(got.view.get("locales/en.json"), step === "set" ? "full" : "summary", step);
  }
  await kept.close();
});

const hex = (i: number) => i.toString(16).toUpperCase().padStart(24, "0");
/** An Xcode project of `n` source files, as Xcode writes one (over 8 KB from about 40 files). */
const pbxproj = (n: number) =>
  "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tclasses = {\n\t};\n\tobjectVersion = 56;\n\tobjects = {\n\n" +
  "/* Begin PBXBuildFile section */\n" +
  Array.from(
    { length: n },
    (_, i) =>
      `\t\t${hex(i)} /* File${i}.swift in Sources */ = {isa = PBXBuildFile; fileRef = ${
        hex(1000 + i)
      } /* File${i}.swift */; };\n`,
  ).join("") +
  "/* End PBXBuildFile section */\n\n/* Begin PBXFileReference section */\n" +
  Array.from(
    { length: n },
    (_, i) =>
      `\t\t${hex(1000 + i)} /* File${i}.swift */ = {isa = PBXFileReference; lastKnownFileType = ` +
      `sourcecode.swift; path = File${i}.swift; sourceTree = "<group>"; };\n`,
  ).join("") +
  "/* End PBXFileReference section */\n\n/* Begin PBXNativeTarget section */\n" +
  `\t\t${hex(5000)} /* Runner */ = {\n\t\t\tisa = PBXNativeTarget;\n\t\t\tname = Runner;\n` +
  '\t\t\tproductName = Runner;\n\t\t\tproductType = "com.apple.product-type.application";\n\t\t};\n' +
  `\t\t${
    hex(5001)
  } /* RunnerTests */ = {\n\t\t\tisa = PBXNativeTarget;\n\t\t\tname = RunnerTests;\n` +
  '\t\t\tproductType = "com.apple.product-type.bundle.unit-test";\n\t\t};\n' +
  "/* End PBXNativeTarget section */\n\n/* Begin XCBuildConfiguration section */\n" +
  ["Debug", "Release"].map((name, i) =>
    `\t\t${hex(6000 + i)} /* ${name} */ = {\n\t\t\tisa = XCBuildConfiguration;\n` +
    `\t\t\tbuildSettings = {\n\t\t\t\tPRODUCT_BUNDLE_IDENTIFIER = com.example.runner;\n\t\t\t};\n` +
    `\t\t\tname = ${name};\n\t\t};\n`
  ).join("") +
  "/* End XCBuildConfiguration section */\n\n/* Begin XCRemoteSwiftPackageReference section */\n" +
  `\t\t${hex(7000)} /* XCRemoteSwiftPackageReference "Sparkle" */ = {\n` +
  '\t\t\tisa = XCRemoteSwiftPackageReference;\n\t\t\trepositoryURL = "https://github.com/sparkle-project/Sparkle";\n\t\t};\n' +
  `/* End XCRemoteSwiftPackageReference section */\n\t};\n\trootObject = ${
    hex(9000)
  } /* Project object */;\n}\n`;

/** A Godot scene of `n` tiles' worth of data on one map node, as the editor writes it. */
const tscn = (n: number) =>
  '[gd_scene load_steps=4 format=3 uid="uid://p01fb6nvi144"]\n\n' +
  '[ext_resource type="Script" path="res://src/field/field.gd" id="1_a"]\n' +
  '[ext_resource type="PackedScene" uid="uid://b6" path="res://src/pieces/knight.tscn" id="2_b"]\n\n' +
  '[sub_resource type="RectangleShape2D" id="RectangleShape2D_x"]\nsize = Vector2(16, 16)\n\n' +
  '[node name="Main" type="Node2D"]\n\n[node name="Field" type="Node2D" parent="."]\n' +
  'script = ExtResource("1_a")\n\n[node name="Map" type="TileMap" parent="Field"]\n' +
  `layer_0/tile_data = PackedInt32Array(${
    Array.from({ length: n }, (_, i) => `${i * 65536}, 1, ${i % 7}`).join(", ")
  })\n\n` +
  '[node name="Knight" parent="Field" instance=ExtResource("2_b")]\nposition = Vector2(8, 8)\n\n' +
  '[connection signal="clicked" from="Field/Map" to="Field" method="_on_map_clicked"]\n';

/** A Unity scene of `n` game objects (Unity's YAML, its `!u!` tags). */
const unityScene = (n: number) =>
  "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n" +
  Array.from({ length: n }, (_, i) =>
    `--- !u!1 &${
      100 + i
    }\nGameObject:\n  m_ObjectHideFlags: 0\n  m_Name: Object ${i}\n  m_IsActive: 1\n` +
    `--- !u!4 &${5000 + i}\nTransform:\n  m_GameObject: {fileID: ${100 + i}}\n` +
    `  m_LocalPosition: {x: ${i}, y: 0, z: 0}\n  m_LocalScale: {x: 1, y: 1, z: 1}\n`).join("");

Deno.test("files an editor writes (Xcode, Unity, Godot) and SVGs over 8 KB are summarized by what they hold; small or named ones whole", async () => {
  const big = {
    "ios/Runner.xcodeproj/project.pbxproj": pbxproj(60),
    "src/main.tscn": tscn(700),
    "Assets/Main.unity": unityScene(60),
    "img/icon.svg": SVG.slice(0, 12_000) + "\n</svg>\n",
  };
  // A device description of CMSIS (XML, a data file of 32 KB's limit), beside them.
  const svd = '<?xml version="1.0" encoding="utf-8"?>\n<device schemaVersion="1.1">\n' +
    Array.from(
      { length: 500 },
      (_, i) =>
        `  <register><name>CR${i}</name><addressOffset>0x${
          i.toString(16)
        }</addressOffset></register>`,
    )
      .join("\n") +
    "\n</device>\n";
  assert.ok(size(svd) > 32 * 1024, String(size(svd)));
  for (const text of Object.values(big)) {
    assert.ok(size(text) > 8 * 1024 && size(text) < 32 * 1024, String(size(text)));
  }
  const small = {
    "mac/Runner.xcodeproj/project.pbxproj": pbxproj(4),
    "src/ui/button.tscn": tscn(4),
    "Assets/Empty.unity": unityScene(2),
    "img/dot.svg": SVG.slice(0, 2_000) + "\n</svg>\n",
  };
  const root = await makeProject({ ...big, ...small, "tools/STM32F405.svd": svd });
  const { result, view } = await built(root, undefined);
  for (const path of Object.keys(big)) assert.equal(view.get(path), "summary", path);
  for (const path of Object.keys(small)) assert.equal(view.get(path), "full", path);
  const doc = result.document;
  const pbx = "ios/Runner.xcodeproj/project.pbxproj";
  const reason = result.manifest.files.find((f) => f.path === pbx)!.notes![0];
  assert.match(reason, /^a data file of \d+ KB, over 8 KB: summarized by default/);
  assert.match(
    doc,
    /\*\*Xcode project\*\*, [\d,]+ lines\n- targets: `Runner` \(application\), `RunnerTests` \(bundle\.unit-test\)\n- build configurations: `Debug`, `Release`\n- bundle ids: `com\.example\.runner`\n- packages: `https:\/\/github\.com\/sparkle-project\/Sparkle`\n- objects: `PBXBuildFile × 60`, `PBXFileReference × 60`, `PBXNativeTarget × 2`, `XCBuildConfiguration × 2`, `XCRemoteSwiftPackageReference × 1`\n/,
  );
  assert.match(
    doc,
    /\*\*Godot scene\*\*, [\d,]+ lines\n- nodes \(4\): `Main` \(Node2D\), `Field` \(Node2D\), `Map` \(TileMap\), `Knight` \(res:\/\/src\/pieces\/knight\.tscn\)\n- scripts: `res:\/\/src\/field\/field\.gd`\n- scenes: `res:\/\/src\/pieces\/knight\.tscn`\n- resources: `RectangleShape2D × 1`\n- connections: `Field\/Map\.clicked -> Field\._on_map_clicked`\n/,
  );
  assert.match(doc, /\*\*Unity YAML\*\*, [\d,]+ lines\n- keys: `GameObject`, `Transform`/);
  assert.match(
    doc,
    /### tools\/STM32F405\.svd\n\n\(a data file of \d+ KB, over 32 KB[^\n]*\)\n\n\*\*XML\*\*/,
  );
  assert.match(summaryText(result), /\nsummarized: 5 data files over 8 or 32 KB/);
  const named = await built(root, {
    files: ["**", "**/*.pbxproj", "src/main.tscn", "**/*.unity", "img/*.svg"],
  });
  for (const path of Object.keys(big)) assert.equal(named.view.get(path), "full", path);
});

Deno.test("a gettext template or catalog shown whole is summarized over 256 KB (a WordPress plugin's .pot), with its messages counted", async () => {
  /** A template of `n` messages, each with where the code says it (about 110 bytes a message). */
  const pot = (n: number) =>
    'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n' +
    Array.from(
      { length: n },
      (_, i) =>
        `#: includes/admin/class-settings-page-${
          i % 40
        }.php:${i}\nmsgid "Message ${i}"\nmsgstr ""\n`,
    ).join("\n");
  const catalog = (lang: string) =>
    `msgid ""\nmsgstr "Language: ${lang}\\n"\n\nmsgid "Hi"\nmsgstr "Hi ${lang}"\n`;
  const root = await makeProject({
    "src/app.php": "<?php echo 1;\n",
    // A WordPress plugin ships its template alone: 340 KB.
    "languages/my-plugin.pot": pot(4_000),
    // A set's template: 300 KB, and a template of 85 KB beside no catalogs.
    "po/app.pot": pot(3_600),
    "po/de.po": catalog("de"),
    "po/fr.po": catalog("fr"),
    "po/ja.po": catalog("ja"),
    "i18n/small.pot": pot(1_000),
    // A set with no template: its first catalog, 340 KB, is summarized too.
    "locale/de/LC_MESSAGES/django.po": pot(4_000).replace(
      'msgstr ""\n"',
      'msgstr "Language: de\\n"\n"',
    ),
    "locale/fr/LC_MESSAGES/django.po": pot(100),
    "locale/it/LC_MESSAGES/django.po": catalog("it"),
  });
  const { result, view } = await built(root, undefined);
  for (const path of ["languages/my-plugin.pot", "po/app.pot", "locale/de/LC_MESSAGES/django.po"]) {
    assert.ok(size(await Deno.readTextFile(`${root}/${path}`)) > 256 * 1024, path);
    assert.equal(view.get(path), "summary", path);
  }
  assert.ok(size(pot(1_000)) > 32 * 1024 && size(pot(1_000)) < 256 * 1024);
  assert.equal(view.get("i18n/small.pot"), "full");
  const reason = dataReason(size(pot(4_000)), 256 * 1024);
  assert.ok(
    result.document.includes(`(${reason})\n\n**gettext template**`),
    result.document.slice(0, 600),
  );
  assert.match(result.document, /\*\*gettext template\*\*, [\d,]+ lines, 4,000 messages/);
  // A set's other catalogs under 4 KB are whole, as before; over it, their reason no longer says
  // the one they are like is shown whole.
  assert.equal(view.get("po/de.po"), "full");
  assert.equal(view.get("locale/fr/LC_MESSAGES/django.po"), "summary");
  assert.ok(
    result.document.includes(
      '(a translation like "locale/de/LC_MESSAGES/django.po" (shown whole up to 256 KB): ',
    ),
  );
  // Named in "files", a template is whole at any size.
  const named = await built(root, { files: ["**", "languages/my-plugin.pot"] });
  assert.equal(named.view.get("languages/my-plugin.pot"), "full");
});

Deno.test("the English translation a set shows whole is summarized over 256 KB, its strings counted; every reason states the limit that applied", async () => {
  /** A translation of `n` strings (about 40 bytes each). */
  const strings = (lang: string, n: number) =>
    JSON.stringify(
      { app: Object.fromEntries(Array.from({ length: n }, (_, i) => [`key${i}`, `${lang} ${i}`])) },
      null,
      2,
    ) + "\n";
  const properties = (lang: string, n: number) =>
    Array.from({ length: n }, (_, i) => `screen.key${i}=${lang} text ${i}`).join("\n") + "\n";
  const root = await makeProject({
    "src/app.ts": "export const app = 1;\n",
    // English over 256 KB in a JSON set and in a .properties set (no data ending).
    "locales/en.json": strings("en", 12_000),
    "locales/de.json": strings("de", 200),
    "locales/fr.json": strings("fr", 200),
    "i18n/messages_en.properties": properties("en", 10_000),
    "i18n/messages_de.properties": properties("de", 300),
    "i18n/messages_fr.properties": properties("fr", 300),
    // English of 100 KB: whole, as before.
    "lang/en.yml": Array.from({ length: 4_000 }, (_, i) => `key${i}: "en text ${i}"`).join("\n"),
    "lang/de.yml": "key0: de\n",
    "lang/it.yml": "key0: it\n",
  });
  const { result, view } = await built(root, undefined);
  for (const path of ["locales/en.json", "i18n/messages_en.properties"]) {
    const bytes = size(await Deno.readTextFile(`${root}/${path}`));
    assert.ok(bytes > 256 * 1024, path);
    assert.equal(view.get(path), "summary", path);
    assert.ok(result.document.includes(`(${dataReason(bytes, 256 * 1024)})`), path);
  }
  assert.match(result.document, /- 12,000 strings/);
  assert.equal(view.get("lang/en.yml"), "full");
  assert.equal(view.get("locales/de.json"), "summary");
  assert.ok(result.document.includes(`(${translationReason("locales/en.json")})`));
  assert.ok(translationReason("locales/en.json").includes("(shown whole up to 256 KB)"));
  // The summary's line names the limit the files' reasons state.
  const line = summaryText(result).split("\n").find((l) => l.startsWith("summarized: 2 data"));
  assert.ok(line?.includes("over 256 KB"), summaryText(result));
});

Deno.test("each summarized file's reason states the limit it was over, and a file at that limit is whole", async () => {
  const json = (bytes: number) =>
    `[${'"x",'.repeat(Math.floor((bytes - 5) / 4))}"x"]`.padEnd(bytes);
  const svg = (bytes: number) =>
    `<svg xmlns="http://www.w3.org/2000/svg">`.padEnd(bytes - 6) + "</svg>";
  const po = (bytes: number) =>
    ('msgid ""\nmsgstr ""\n\n' + 'msgid "a"\nmsgstr ""\n\n'.repeat(bytes / 20)).slice(0, bytes);
  const prose = (bytes: number) => BOOK_PAGES(8).slice(0, bytes);
  const words = (bytes: number) => NAMES_LIST.repeat(3).slice(0, bytes);
  const cases: Array<[string, (n: number) => string, number]> = [
    ["data/a.json", json, 32],
    ["art/a.svg", svg, 8],
    ["App.xcodeproj/project.pbxproj", (n) => "// !$*UTF8*$!\n{\n".padEnd(n - 2) + "}\n", 8],
    ["languages/a.pot", po, 256],
    ["notes/a.txt", prose, 256],
    ["lists/a.txt", words, 32],
  ];
  const tree: Record<string, string> = {};
  for (const [path, make, kb] of cases) {
    const [dir, name] = [
      path.slice(0, path.lastIndexOf("/")),
      path.slice(path.lastIndexOf("/") + 1),
    ];
    tree[`over/${dir}/${name}`] = make(kb * 1024 + 1);
    tree[`at/${dir}/${name}`] = make(kb * 1024);
  }
  const root = await makeProject(tree);
  const { result, view } = await built(root, undefined);
  for (const [path, , kb] of cases) {
    assert.equal(view.get(`at/${path}`), "full", `at/${path}`);
    assert.equal(view.get(`over/${path}`), "summary", `over/${path}`);
    const file = result.files.find((f) => f.path === `over/${path}`)!;
    const note = file.notes?.find((n) => n.startsWith("a data file of "));
    assert.match(note ?? "", new RegExp(`, over ${kb} KB: `), `over/${path}: ${note}`);
  }
});

Deno.test("a database's older exported schema versions are skipped, the latest shown; named, all are shown", async () => {
  const schema = (n: number) =>
    JSON.stringify({ formatVersion: 1, database: { version: n } }) + "\n";
  const root = await makeProject({
    "src/app.kt": "class App\n",
    // Android Room: one file a version; 10 is the latest (by number, not by name).
    "core/database/schemas/com.example.AppDatabase/1.json": schema(1),
    "core/database/schemas/com.example.AppDatabase/2.json": schema(2),
    "core/database/schemas/com.example.AppDatabase/10.json": schema(10),
    // One version alone, and numbered files in no schema folder: shown.
    "app/schemas/com.example.Cache/1.json": schema(1),
    "fixtures/1.json": schema(1),
    "fixtures/2.json": schema(2),
    // Numbered files under schemas/ that are no versions: an API's schema of each status code.
    "api/orders/schemas/200.json": schema(200),
    "api/orders/schemas/404.json": schema(404),
    "schemas/errors/400.json": schema(400),
    "schemas/errors/500.json": schema(500),
  });
  const { result } = await built(root, undefined);
  const status = new Map(result.files.map((f) => [f.path, f]));
  const at = "core/database/schemas/com.example.AppDatabase";
  for (const n of [1, 2]) {
    const file = status.get(`${at}/${n}.json`)!;
    assert.equal(file.status, "skipped", `${n}.json`);
    assert.equal(
      file.reason,
      `an older version of a schema (the latest, "${at}/10.json", is shown), skipped by default: ` +
        'name it in "files" to include it',
    );
  }
  const shown = [`${at}/10.json`, "app/schemas/com.example.Cache/1.json", "fixtures/1.json"];
  shown.push("api/orders/schemas/200.json", "schemas/errors/400.json");
  for (const path of shown) {
    assert.equal(status.get(path)?.status, "rendered", path);
  }
  const named = await built(root, { files: ["**", `${at}/*.json`] });
  assert.equal(named.view.get(`${at}/1.json`), "full");
});

Deno.test("code over 32 KB that is mostly number tables is summarized; code with numbers, or named, is whole", async () => {
  const hex = (i: number) => `0x${(i * 2654435761 % 65536).toString(16).padStart(4, "0")}`;
  const rows = (n: number, row: (i: number) => string) =>
    Array.from({ length: n }, (_, i) => row(i)).join("\n");
  const texts: Record<string, string> = {
    // FatFs's ffunicode.c: code page tables between a few functions.
    "src/lib/ff/ffunicode.c": "/* code pages */\nstatic const WCHAR uc437[] = {\n" +
      rows(1_000, (i) => `\t${[0, 1, 2, 3, 4, 5, 6, 7].map((j) => hex(i * 8 + j)).join(", ")},`) +
      "\n};\nWCHAR ff_uni2oem(DWORD uni, WORD cp) { return uc437[uni % 128]; }\n",
    // A table of primes included by a Pascal unit; SPIR-V words in a header; a Rust array.
    "source/primes.inc": rows(6_000, (i) => `${i * 7 + 2},`),
    "shaders/frag.spv.h": "const uint32_t frag[] = {\n" +
      rows(1_000, (i) => `${[0, 1, 2, 3].map((j) => hex(i + j) + "0000").join(",")},`) + "\n};\n",
    "src/table.rs": "pub static T: [u16; 8000] = [\n" +
      rows(
        1_000,
        (i) => `    ${[0, 1, 2, 3, 4, 5, 6, 7].map((j) => (i * 8 + j) % 997).join(", ")},`,
      ) +
      "\n];\n",
    // chardet's language models: a Python dict of dicts of numbers, a letter in each comment.
    "chardet/langrussianmodel.py": "RUSSIAN_LANG_MODEL = {\n" +
      rows(
        2_500,
        (i) => i % 50 ? `        ${i % 64}: ${i % 4},  # 'letter ${i}'` : `    ${i / 50}: {  # 'A'`,
      ) + "\n}\n",
  };
  const whole: Record<string, string> = {
    // Code whose lines hold numbers: a formatter's constants beside its functions.
    "src/format.c": rows(
      1_200,
      (i) =>
        i % 3
          ? `  x = pow10(${i}) * 0x${i.toString(16)}; // step ${i}`
          : `static int f${i}(int x) {`,
    ),
    "src/app.ts": rows(1_500, (i) => `export const step${i} = [${i}, ${i + 1}].map((x) => x * 2);`),
  };
  const root = await makeProject({ ...texts, ...whole });
  const { result, view } = await built(root, undefined);
  for (const [path, text] of Object.entries({ ...texts, ...whole })) {
    assert.ok(size(text) > 32 * 1024, path);
    assert.equal(view.get(path), path in texts ? "summary" : "full", path);
  }
  assert.ok(
    result.document.includes(`(${dataReason(size(texts["source/primes.inc"]))})`),
    "primes.inc's reason",
  );
  const named = await built(root, { files: ["**", "src/lib/ff/ffunicode.c"] });
  assert.equal(named.view.get("src/lib/ff/ffunicode.c"), "full");
});
