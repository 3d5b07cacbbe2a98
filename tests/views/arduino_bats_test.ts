import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";

// An Arduino sketch (`.ino`) is C++ that the IDE compiles after adding `#include <Arduino.h>`:
// no grammar read it, and its views were `summary` (adafruit/Adafruit_NeoPixel's examples).
// Written for these tests.
Deno.test("an Arduino sketch is read as C++", async () => {
  const text = [
    "#include <Adafruit_NeoPixel.h>",
    "#define LED_PIN 6",
    "Adafruit_NeoPixel strip(60, LED_PIN, NEO_GRBW + NEO_KHZ800);",
    "",
    "void setup() {",
    "  strip.begin();",
    "}",
    "",
    "void loop() {",
    "  colorWipe(strip.Color(255, 0, 0), 50);",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("examples/strandtest/strandtest.ino", text))!;
  assert.equal(
    view.text,
    [
      "#include <Adafruit_NeoPixel.h>",
      "#define LED_PIN 6",
      "Adafruit_NeoPixel strip(60, LED_PIN, NEO_GRBW + NEO_KHZ800);",
      "",
      "void setup() { ... }",
      "",
      "void loop() { ... }",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => s.name), ["LED_PIN", "strip", "setup", "loop"]);
});

// A Bats file (`.bats`) is bash with `@test "title" { ... }` blocks, whose header is no shell:
// no grammar read it (bats-core's 220 `.bats` files were `summary`).
Deno.test("a Bats file's tests are symbols named by their titles, bodies elided", async () => {
  const text = [
    "#!/usr/bin/env bats",
    "load test_helper",
    "",
    "setup() {",
    "  make_fixtures",
    "}",
    "",
    '@test "adds one (twice)" {',
    "  run add 1",
    '  [ "$status" -eq 0 ]',
    "}",
    "",
    "@test passing {",
    "  :",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("test/add.bats", text))!;
  assert.equal(
    view.text,
    [
      "#!/usr/bin/env bats",
      "load test_helper",
      "",
      "setup() { ... }",
      "",
      '@test "adds one (twice)" { ... }',
      "",
      "@test passing { ... }",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => [s.name, s.kind, s.signature]), [
    ["setup", "function", "setup()"],
    ["adds one (twice)", "test", '@test "adds one (twice)"'],
    ["passing", "test", "@test passing"],
  ]);
  assert.equal(view.hasErrors, false);
});
