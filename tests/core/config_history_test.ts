import assert from "node:assert/strict";
import { validateConfig } from "../../mod.ts";

Deno.test("validateConfig() names the inline history message at fault, not only the array", () => {
  assert.deepEqual(validateConfig({ history: [{ role: "user", content: 5 }] }), [
    '"history[0].content" must be a string, got number 5',
  ]);
  assert.deepEqual(validateConfig({ history: ["hi", { rol: "user", content: "x" }] }), [
    '"history[1].role" is required',
    'Unknown key "history[1].rol" (did you mean "history[1].role"?)',
  ]);
  assert.deepEqual(validateConfig({ history: ["hi", 3] }), [
    '"history[1]" must be a string or a { role, content } object, got number 3',
  ]);
  assert.deepEqual(validateConfig({ history: 3 }), [
    '"history" must be a file path or an array of messages, got number 3',
  ]);
  assert.deepEqual(validateConfig({ history: ["hi", { role: "user", content: "x" }] }), []);
});
