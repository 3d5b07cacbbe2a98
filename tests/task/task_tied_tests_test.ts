// A test tied to the file the task ranks first (by name, or by the history's share of that file's
// commits) is tried in full as if ranked after it: a feature's large test ranked far down is not
// passed over for the small files ranked between (bench/README.md, rel30).
import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { fitOrder, placeChance } from "../../pipeline/_task_fit.ts";
import {
  TEST_PATH,
  testStem,
  testTie,
  TIE_MIN_COMMITS,
  TIE_WEIGHT,
  tiedChances,
} from "../../pipeline/_task_tests.ts";
import { makeProject } from "../_helpers.ts";
import { fullInTask } from "./_project.ts";

Deno.test("testStem pairs a test with the file it tests across naming styles", () => {
  for (
    const [test, source] of [
      ["moshi/src/test/java/com/squareup/moshi/MoshiTest.java", "moshi/src/main/Moshi.kt"],
      ["tests/test_app.py", "src/flask/app.py"],
      ["mux_test.go", "mux.go"],
      ["test/application.test.js", "lib/application.js"],
      ["spec/router.spec.ts", "src/router.ts"],
      ["FooTests.cs", "Foo.cs"],
    ]
  ) {
    assert.ok(TEST_PATH.test(test), test);
    assert.ok(!TEST_PATH.test(source), source);
    assert.equal(testStem(test), testStem(source), `${test} ${source}`);
  }
  assert.notEqual(testStem("tests/test_app.py"), testStem("src/apply.py"));
});

Deno.test("testTie: 1 by name, else the share of the file's commits that changed the test", () => {
  assert.equal(testTie("tests/test_app.py", "src/app.py", []), 1);
  const commit = (...paths: string[]) => ({ paths });
  const history = [
    commit("src/views.py", "tests/test_routing.py"),
    commit("src/views.py"),
    commit("src/views.py", "tests/test_routing.py", "README.md"),
    commit("tests/test_routing.py"),
    commit("src/views.py"),
  ];
  assert.equal(testTie("tests/test_routing.py", "src/views.py", history), 2 / 4);
  // Too few of the file's commits to tell: no tie.
  const short = history.slice(0, TIE_MIN_COMMITS - 1);
  assert.equal(testTie("tests/test_routing.py", "src/views.py", short), 0);
});

Deno.test("tiedChances ties tests after the first code file that is not a test, only them", () => {
  const paths = [
    "README.md",
    "tests/test_old.py",
    "src/app.py",
    "src/util.py",
    "tests/test_app.py",
  ];
  const code = [false, true, true, true, true];
  const tied = tiedChances(paths, { chance: placeChance, code });
  // The README is not code and the test ranked second is a test: `src/app.py` (index 2) is the
  // file; its test is valued at the place after it.
  assert.deepEqual(tied, [0, 0, 0, 0, TIE_WEIGHT * placeChance(3)]);
  // A test ranked before the file is not lifted, nor a file that is not a test.
  assert.deepEqual(
    tiedChances(["tests/test_app.py", "src/app.py", "src/app_util.py"], { chance: placeChance }),
    [0, 0, 0],
  );
  // Deterministic: the same input, the same chances.
  assert.deepEqual(tiedChances(paths, { chance: placeChance, code }), tied);
});

Deno.test("fitOrder tries a tied test by its tie's chance when larger than its place's", () => {
  const costs = [400, ...Array(30).fill(2000), 12000];
  assert.equal(fitOrder(costs).indexOf(31), 31);
  assert.equal(fitOrder(costs, { tied: [...Array(31).fill(0), 0.1] }).indexOf(31), 14);
  // A tie smaller than the place's chance changes nothing.
  assert.deepEqual(fitOrder(costs, { tied: [...Array(31).fill(0), 1e-6] }), fitOrder(costs));
});

/** A project whose first file's test ranks last, after 20 small files the task's words reach. */
function project(): Record<string, string> {
  const ledger = ['"""The ledger: the surcharge on a tariff."""', ""];
  for (let i = 0; i < 6; i++) {
    ledger.push(`def surcharge_${i}(amount):`, `    """The surcharge for band ${i}."""`);
    ledger.push(`    return amount * ${i + 2}`, "");
  }
  const test = ['"""Tests of the ledger: a tariff."""', ""];
  for (let i = 0; i < 36; i++) {
    test.push(`def test_case_${i}():`, `    assert rate(${i}) == ${i * 2}`);
    test.push(`    assert ${i} + ${i} == ${2 * i}`, "");
  }
  const tree: Record<string, string> = {
    "src/ledger.py": ledger.join("\n"),
    "tests/test_ledger.py": test.join("\n"),
  };
  for (let i = 0; i < 20; i++) {
    const steps = Array.from({ length: 12 }, (_, k) => `    x = x * ${k + 2} + ${i}  # step ${k}`);
    tree[`src/band_${String(i).padStart(2, "0")}.py`] = [
      `def band_${i}(x):`,
      `    """Charge the tariff for band ${i}."""`,
      ...steps,
      "    return x",
      "",
    ].join("\n");
  }
  return tree;
}

Deno.test("a large test named after the first file is in full before small files ranked ahead of it", async () => {
  const root = await makeProject(project());
  const task = "Charge the tariff surcharge for each band";
  for (const tokens of [4000, 4400, 5000]) {
    const result = await buildContext(
      { cwd: root, inline: { task, budget: { tokens, mapTokens: 300, mapFull: 0 } } },
      { write: false },
    );
    const files = result.manifest.task!.files;
    // The ledger first, the bands, its test last.
    assert.equal(files[0].path, "src/ledger.py");
    const full = fullInTask(files);
    const label = `${tokens}: ${[...full].join(", ")}`;
    assert.ok(full.has("tests/test_ledger.py"), label);
    // Tried before the bands ranked last: they are not all in full.
    assert.ok(!full.has("src/band_19.py"), label);
    assert.ok(result.manifest.total.tokens <= tokens, label);
  }
});
