// A ts block of docs/caching.md, copied by tests/docs/_snippets.ts: do not edit.
import { cacheKey, loadConfig, openCache, sha256Hex } from "../../../mod.ts";

const config = await loadConfig({ config: "slop.config.ts" });
const cache = openCache(config.cache.dir, { enabled: config.cache.enabled });
const text = await Deno.readTextFile("src/app.ts");
const key = cacheKey(["my-stage", "1", { model: "m", temperature: 0 }, sha256Hex(text)]);
let summary = await cache.get<string>(key); // undefined when missing or corrupt
if (summary === undefined) await cache.set(key, summary = text.split("\n")[0]);
