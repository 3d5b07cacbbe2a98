// A ts block of docs/development.md, copied by tests/docs/_snippets.ts: do not edit.
import { build, defaultPlugins, loadConfig } from "../../../mod.ts";
const config = await loadConfig({ cwd: Deno.cwd() });
const plain = await build(config, { builtins: defaultPlugins(), write: false });
console.log(plain.manifest.total.bytes);
