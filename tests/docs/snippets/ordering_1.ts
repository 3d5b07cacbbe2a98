// A ts block of docs/ordering.md, copied by tests/docs/_snippets.ts: do not edit.
import { assertStablePrefix } from "../../../mod.ts";

Deno.test("the context prefix is pinned", async (t) => {
  await assertStablePrefix(t, { config: "slop.config.ts" });
});
