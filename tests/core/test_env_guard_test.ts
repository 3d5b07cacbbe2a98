// The suite's runners refuse changes to the process environment once the tests start
// (tests/_helpers.ts, guardEnv): the test files run as threads of one process, and a variable one
// test set for a while reached the children of the tests beside it.
import assert from "node:assert/strict";
import { REPO, runScript } from "../_helpers.ts";

Deno.test("once guarded, a test's change to the process environment throws; withEnvSync and no-op changes pass", async () => {
  const helpers = new URL("tests/_helpers.ts", `file://${REPO}/`).href;
  const code = `import { guardEnv, withEnvSync } from ${JSON.stringify(helpers)};
Deno.env.set("SLOP_GUARD_TOP", "1");
guardEnv();
const out = {};
const tryIt = (name, fn) => { try { fn(); out[name] = "passed"; } catch (e) { out[name] = e.message; } };
tryIt("set", () => Deno.env.set("SLOP_GUARD_NEW", "1"));
tryIt("delete", () => Deno.env.delete("SLOP_GUARD_TOP"));
tryIt("same value", () => Deno.env.set("SLOP_GUARD_TOP", "1"));
tryIt("delete unset", () => Deno.env.delete("SLOP_GUARD_UNSET"));
tryIt("withEnvSync", () => withEnvSync({ SLOP_GUARD_NEW: "2" }, () => Deno.env.get("SLOP_GUARD_NEW")));
out.after = Deno.env.get("SLOP_GUARD_NEW") ?? null;
console.log(JSON.stringify(out));`;
  const run = await runScript(code, REPO);
  assert.equal(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout);
  assert.match(out.set, /A test changed the process environment \("SLOP_GUARD_NEW"\)/);
  assert.match(out.delete, /\("SLOP_GUARD_TOP"\)/);
  assert.equal(out["same value"], "passed");
  assert.equal(out["delete unset"], "passed");
  assert.equal(out.withEnvSync, "passed");
  assert.equal(out.after, null);
});
