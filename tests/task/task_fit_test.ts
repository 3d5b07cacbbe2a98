// The task section tries its files in full by expected recall per token: a large file a little
// ahead in the ranking does not crowd out several small ones that are about as likely needed.
import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import {
  FIT_ROOM_TIMES,
  fitOrder,
  MIN_FIT_FILES,
  RANK_DECAY,
  SIZE_EXPONENT,
  triedEnough,
} from "../../pipeline/_task_fit.ts";
import { OTHER_FILES } from "../../pipeline/rank.ts";
import { makeProject } from "../_helpers.ts";
import { fullInTask } from "./_project.ts";

Deno.test("fitOrder tries files by place^-RANK_DECAY over tokens^SIZE_EXPONENT", () => {
  assert.deepEqual(fitOrder([12000, 600, 5000]), [1, 0, 2]);
  // Equal sizes keep the ranking's order; a file without a view to try is left out.
  assert.deepEqual(fitOrder([800, 800, undefined, 800]), [0, 1, 3]);
  assert.deepEqual(fitOrder([]), []);
  // The value the order follows, checked against the formula on varied sizes.
  const costs = [9000, 300, 2500, 40, 7000, 1200, 300, 15000];
  const value = (i: number) => (i + 1) ** -RANK_DECAY / costs[i] ** SIZE_EXPONENT;
  const order = fitOrder(costs);
  assert.equal(order.length, costs.length);
  for (let k = 1; k < order.length; k++) {
    assert.ok(value(order[k - 1]) >= value(order[k]), `${order}`);
  }
});

Deno.test("triedEnough: the first MIN_FIT_FILES, then until they hold FIT_ROOM_TIMES the room", () => {
  const room = 10_000;
  assert.equal(triedEnough(MIN_FIT_FILES - 1, FIT_ROOM_TIMES * room * 10, room), false);
  assert.equal(triedEnough(MIN_FIT_FILES, FIT_ROOM_TIMES * room, room), true);
  assert.equal(triedEnough(MIN_FIT_FILES + 50, FIT_ROOM_TIMES * room - 1, room), false);
  // A section with no room left has tried enough once it has the first files.
  assert.equal(triedEnough(MIN_FIT_FILES, 0, 0), true);
});

Deno.test("fitOrder counts an empty file as one token, not as free", () => {
  // 1 / 4^0.5 = 0.5 against 2^-1.2 / 1 = 0.435: the first stays first.
  assert.deepEqual(fitOrder([4, 0]), [0, 1]);
  assert.deepEqual(fitOrder([0, 0, 0]), [0, 1, 2]);
});

/** A project whose best-ranked file is large and the next ones small. */
function project(): Record<string, string> {
  const tree: Record<string, string> = {};
  const big = ['"""The cookie jar: stores every cookie and its expiry."""', ""];
  for (let i = 0; i < 130; i++) {
    big.push(
      `def jar_step_${i}(jar, cookie):`,
      `    """Step ${i} of keeping the cookie jar: check the cookie expiry."""`,
      `    return jar.get(cookie.name, ${i}) + len(cookie.value) * ${i}`,
      "",
    );
  }
  tree["src/cookie_jar.py"] = big.join("\n");
  for (const name of ["expiry", "policy", "header", "domain"]) {
    tree[`src/cookie_${name}.py`] = [
      `"""The cookie ${name}: how a cookie expiry is read."""`,
      "",
      ...[0, 1, 2, 3].flatMap((i) => [
        `def cookie_${name}_${i}(cookie):`,
        `    """Read the cookie ${name} and the expiry of a cookie (case ${i})."""`,
        `    return cookie.expiry + ${i}`,
        "",
      ]),
    ].join("\n");
  }
  for (let i = 0; i < 8; i++) {
    tree[`src/other_${i}.py`] = `def other_${i}(x):\n    """Unrelated ${i}."""\n    return x\n`;
  }
  return tree;
}

const SMALL = ["expiry", "domain", "header"].map((n) => `src/cookie_${n}.py`);

Deno.test("a large file ahead in the ranking does not crowd out the small ones after it", async () => {
  const root = await makeProject(project());
  const task = "Fix the cookie expiry in the cookie jar (cookie_jar.py)";
  const seen = { bigOnly: false, smallOnly: false };
  for (let tokens = 5800; tokens <= 7400; tokens += 200) {
    const result = await buildContext(
      { cwd: root, inline: { task, budget: { tokens, mapTokens: 300 } } },
      { write: false },
    );
    const files = result.manifest.task!.files;
    assert.equal(files[0].path, "src/cookie_jar.py");
    const full = fullInTask(files);
    const label = `${tokens}: ${[...full].join(", ")}`;
    // Tried before the large file (likely enough for their size): in full whenever it is.
    if (full.has("src/cookie_jar.py")) {
      assert.ok(SMALL.every((p) => full.has(p)), label);
      seen.bigOnly = true;
    } else if (SMALL.every((p) => full.has(p))) seen.smallOnly = true;
    // Shown in ranking order all the same.
    const scores = files.map((f) => f.score);
    assert.deepEqual(scores, [...scores].sort((a, b) => b - a), label);
  }
  // Both sides of the trade were met: the large file passed over, then in full with room for it.
  assert.deepEqual(seen, { bigOnly: true, smallOnly: true });
});

Deno.test("a large budget tries the 200 best-ranked files in full, not only the first 100", async () => {
  // 210 small files the task's word reaches, each ranked (fewer mentions, lower), and a map of
  // 300 tokens that holds none of them in full (`mapFull: 0`): room in the section for all.
  const tree: Record<string, string> = {};
  for (let i = 0; i < 210; i++) {
    const mentions = Array.from({ length: 1 + (i % 7) }, () => "tariff").join(" ");
    tree[`src/m${String(i).padStart(3, "0")}.py`] = `def m${i}():\n    """${mentions}"""\n`;
  }
  const root = await makeProject(tree);
  const result = await buildContext(
    {
      cwd: root,
      inline: { task: "Raise the tariff", budget: { tokens: 128000, mapTokens: 300, mapFull: 0 } },
    },
    { write: false },
  );
  const files = result.manifest.task!.files;
  // The first 200 ranked are tried (and fit); the last 10 are past them, and past the list's 50.
  assert.equal(fullInTask(files).size, 200);
  assert.equal(files.length, 200);
  assert.ok(result.manifest.total.tokens <= 128000);
});

Deno.test("a small room tries the first 100 ranked files, not those past them", async () => {
  // 100 files of about 400 tokens that say `tariff` often, ranked first, then 10 tiny ones that
  // say it once, ranked 101st to 110th. An 8,000-token section holds about 18 of the first in
  // full with a little left over, and the first 100 hold over 4 times its room: the tiny ones
  // are not tried (each would fit in what is left, and they are not worth preparing).
  const tree: Record<string, string> = {};
  for (let i = 0; i < 100; i++) {
    const says = Array.from({ length: 40 - (i % 20) }, (_, k) => `tariff w${k}`).join(" ");
    const filler = Array.from({ length: 30 }, (_, k) => `    v${k} = ${k * i} + x`).join("\n");
    tree[`src/b${String(i).padStart(3, "0")}.py`] = `def b${i}(x):\n    """${says}"""\n${filler}\n`;
  }
  for (let i = 0; i < 10; i++) tree[`src/t${i}.py`] = `def t${i}():\n    return "tariff"\n`;
  const root = await makeProject(tree);
  const result = await buildContext(
    { cwd: root, inline: { task: "Raise the tariff", budget: { tokens: 8000, mapTokens: 300 } } },
    { write: false },
  );
  const task = result.manifest.task!;
  const ranked = task.files.map((f) => f.path);
  const full = [...fullInTask(task.files)];
  // The big files rank first and fill the section; no tiny file is in full.
  assert.ok(full.length >= 10, `${full.length}`);
  assert.ok(full.every((p) => p.startsWith("src/b")), full.join(", "));
  assert.ok(ranked.slice(0, full.length).every((p) => p.startsWith("src/b")), ranked.join(", "));
  assert.ok(result.manifest.total.tokens <= 8000);
});

Deno.test("fitOrder gives a file that is not code OTHER_FILES of the chance at its place", () => {
  // Equal sizes: a README ranked first is tried after the code file ranked second.
  assert.deepEqual(fitOrder([500, 500], { code: [false, true] }), [1, 0]);
  assert.deepEqual(fitOrder([500, 500], { code: [true, true] }), [0, 1]);
  const costs = [900, 300, 2500, 40, 700, 1200];
  const code = [false, true, false, true, true, false];
  const value = (i: number) =>
    (i + 1) ** -RANK_DECAY / costs[i] ** SIZE_EXPONENT * (code[i] ? 1 : OTHER_FILES);
  const order = fitOrder(costs, { code });
  assert.equal(order.length, costs.length);
  for (let k = 1; k < order.length; k++) {
    assert.ok(value(order[k - 1]) >= value(order[k]), `${order}`);
  }
});

Deno.test("a doc ranked ahead of a code file does not take the section's room from it", async () => {
  // The guide says the task's words often (and its path names them): it ranks first even at a
  // quarter of its score. The code file, ranked second, is about its size.
  const guide = ["# Tariff rates", ""];
  for (let i = 0; i < 24; i++) guide.push(`Raise the tariff rate for band ${i}: the tariff rate.`);
  const code = ['"""Billing."""', ""];
  for (let i = 0; i < 12; i++) {
    code.push(`def bill_${i}(amount):`, `    return amount * ${i + 2}`, "");
  }
  code.push("def tariff(amount):", "    return amount * RATE", "");
  const root = await makeProject({
    "docs/tariff_rate.md": guide.join("\n"),
    "src/billing.py": code.join("\n"),
  });
  const task = "Raise the tariff rate";
  let codeOnly = 0;
  for (let tokens = 500; tokens <= 1100; tokens += 50) {
    const result = await buildContext(
      { cwd: root, inline: { task, budget: { tokens, mapTokens: 100 } } },
      { write: false },
    );
    const files = result.manifest.task!.files;
    assert.deepEqual(files.map((f) => f.path), ["docs/tariff_rate.md", "src/billing.py"]);
    const full = fullInTask(files);
    const label = `${tokens}: ${[...full].join(", ")}`;
    // Tried first: in full whenever the doc is.
    if (full.has("docs/tariff_rate.md")) assert.ok(full.has("src/billing.py"), label);
    else if (full.has("src/billing.py")) codeOnly++;
    assert.ok(result.manifest.total.tokens <= tokens, label);
  }
  assert.ok(codeOnly > 0, "no budget held the code file alone");
});
