import assert from "node:assert/strict";
import { loadedModules } from "../_helpers.ts";

Deno.test("config.ts loads only modules a build loads anyway, far fewer than mod.ts", async () => {
  const config = await loadedModules("config.ts");
  const build = new Set(await loadedModules("cli/build.ts"));
  const extra = config.filter((m) => !build.has(m) && m !== "config.ts");
  assert.deepEqual(extra, [], "modules config.ts loads that a build does not");
  const whole = await loadedModules("mod.ts");
  assert.ok(
    config.length * 2 < whole.length,
    `config.ts loads ${config.length} modules, mod.ts ${whole.length}`,
  );
  assert.ok(whole.some((m) => m.startsWith("report/")), "mod.ts loads the report");
  assert.ok(
    !config.some((m) => /^(report|knowledge|plugins|api|cli)\//.test(m)),
    config.join("\n"),
  );
});
