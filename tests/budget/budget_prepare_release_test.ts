import assert from "node:assert/strict";
import { prepareOnMiss } from "../../pipeline/_budget_state.ts";
import type { PlanState } from "../../pipeline/_budget_state.ts";
import { createRegistry } from "../../pipeline/registry.ts";
import type { RenderedFile, ViewModePlugin } from "../../mod.ts";

/** A view mode that counts the holds its `prepare` gives and those released. */
function countingView(): { plugin: ViewModePlugin; held: { given: number; released: number } } {
  const held = { given: 0, released: 0 };
  const plugin: ViewModePlugin = {
    name: "outline",
    kind: "view-mode",
    version: "1",
    render: () => ({ text: "" }),
    prepare: () => {
      held.given++;
      return () => held.released++;
    },
  } as unknown as ViewModePlugin;
  return { plugin, held };
}

function stateWith(plugin: ViewModePlugin): PlanState {
  return {
    sources: new Map(),
    options: { registry: createRegistry([plugin]), transform: { warn: () => {} } },
  } as unknown as PlanState;
}

const miss = { cache: "miss" } as RenderedFile;

Deno.test("a budget's step renders after its steps are over get no view ready (nothing would release it)", () => {
  const { plugin, held } = countingView();
  const state = stateWith(plugin);
  // A budget whose steps end before enough misses: renders taken back afterwards.
  const done = prepareOnMiss(state, ["outline"], ["a.py"]);
  for (let i = 0; i < 3; i++) state.rendered!(miss);
  done();
  for (let i = 0; i < 20; i++) state.rendered!(miss);
  assert.deepEqual(held, { given: 0, released: 0 });
});

Deno.test("a budget's steps get the views ready after enough misses and release them once done", () => {
  const { plugin, held } = countingView();
  const state = stateWith(plugin);
  const done = prepareOnMiss(state, ["outline"], ["a.py"]);
  for (let i = 0; i < 20; i++) state.rendered!(miss);
  done();
  for (let i = 0; i < 20; i++) state.rendered!(miss);
  assert.deepEqual(held, { given: 1, released: 1 });
});
