import assert from "node:assert/strict";
import { readEvent } from "../../accel/watch_events.ts";

const everything = () => true;

Deno.test("readEvent() keeps a modification to the file list", () => {
  assert.deepEqual(readEvent({ kind: "modify", paths: ["/p/a.ts"] }, everything), {
    paths: ["/p/a.ts"],
    structural: false,
  });
});

Deno.test("readEvent() makes creations, removals and renames look at every file", () => {
  for (const kind of ["create", "remove", "rename", "other", "any"] as const) {
    assert.equal(readEvent({ kind, paths: ["/p/a.ts"] }, everything)?.structural, true, kind);
  }
});

Deno.test("readEvent() skips accesses and events on ignored paths only", () => {
  assert.equal(readEvent({ kind: "access", paths: ["/p/a.ts"] }, everything), undefined);
  const outsideState = (path: string) => !path.startsWith("/p/.slop/");
  assert.equal(readEvent({ kind: "modify", paths: ["/p/.slop/x"] }, outsideState), undefined);
  assert.deepEqual(
    readEvent({ kind: "modify", paths: ["/p/.slop/x", "/p/b.ts"] }, outsideState)?.paths,
    ["/p/b.ts"],
  );
});

Deno.test("readEvent() treats lost events (rescan) as structural though they name no file", () => {
  assert.deepEqual(readEvent({ kind: "other", paths: [], flag: "rescan" }, everything), {
    paths: [],
    structural: true,
  });
  assert.equal(
    readEvent({ kind: "access", paths: [], flag: "rescan" }, everything)?.structural,
    true,
  );
});
