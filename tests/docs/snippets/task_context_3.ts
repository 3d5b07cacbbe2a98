// A ts block of docs/task_context.md, copied by tests/docs/_snippets.ts: do not edit.
import { coChangeFromLog, definedNames, rankFiles, recentHistory } from "../../../mod.ts";

const paths = ["src/store.py", "src/app.ts", "src/big_module.ts"];
const files = await Promise.all(
  paths.map(async (path) => ({ path, text: await Deno.readTextFile(path) })),
);
const history = await recentHistory(".");
const ranked = await rankFiles(files, "Store.get fails on a missing sku", {
  definitions: definedNames,
  coChange: coChangeFromLog(history, paths),
  history,
});
console.log(ranked[0].path, ranked[0].reasons[0]); // src/store.py { kind: "term", ... }
