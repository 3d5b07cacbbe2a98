// A ts block of docs/ordering_memory.md, copied by tests/docs/_snippets.ts: do not edit.
import { buildContext } from "../../../mod.ts";
// Records the order memory in .slop/order/ (the next build keeps this order's prefix).
const result = await buildContext({ cwd: Deno.cwd() }, { write: false });
// Looks without recording: the memory stays the last real build's.
const look = await buildContext({ cwd: Deno.cwd() }, { write: false, remember: false });
console.log(result.manifest.prefix.bytes === look.manifest.prefix.bytes);
