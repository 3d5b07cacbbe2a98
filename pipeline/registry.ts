/**
 * The plugin registry: validates plugins, lets users replace built-ins by
 * name, freezes before a build, and wraps every hook call so that an error
 * names its plugin, hook and file.
 *
 * @module
 */

import type {
  OrderingPlugin,
  Plugin,
  PluginKind,
  ProviderPlugin,
  SectionPlugin,
  ViewModePlugin,
} from "./types.ts";
import { canonicalJson, MAX_TIMER_MS, PluginError, settleWithin, sha256Hex } from "./helpers.ts";
import { closest, quote, typeName } from "./schema.ts";
import { errorText, hookErrorText } from "./error_text.ts";
import { watchedCall } from "./hook_watchdog.ts";

export { PluginError };

const KEYS: Record<PluginKind, { required: string[]; optional: string[] }> = {
  "view-mode": {
    required: ["render", "version"],
    optional: [
      "extensions",
      "accepts",
      "cacheKey",
      "timeoutMs",
      "prepare",
      "options",
      "definitions",
    ],
  },
  "section": { required: ["compose"], optional: [] },
  "ordering": { required: ["order"], optional: ["commit", "breakpoints"] },
  "provider": { required: [], optional: ["payload", "countTokens", "complete", "modelInfo"] },
};

/** A validated, possibly frozen set of plugins. */
export interface Registry {
  /** Plugins in order: built-ins (replaced in place) then user plugins. */
  plugins: Plugin[];
  /** Set once the build starts; `register` then throws. */
  frozen: boolean;
}

/**
 * Create a registry from the built-in plugins.
 *
 * @example Create and extend a registry
 * ```ts
 * import { createRegistry, register } from "./registry.ts";
 * const registry = createRegistry([]);
 * register(registry, { kind: "section", name: "mine", compose: () => [] });
 * ```
 */
export function createRegistry(builtins: Plugin[]): Registry {
  const registry: Registry = { plugins: [], frozen: false };
  builtins.forEach((plugin, index) => register(registry, plugin, { where: `built-in ${index}` }));
  return registry;
}

/** Stubs of plugins whose module is imported when a build first needs them, and their loaders. */
const loaders = new WeakMap<Plugin, () => Promise<Plugin>>();
/** Imports under way, by stub. */
const loading = new WeakMap<Plugin, Promise<void>>();

/** What a stub's hooks do before its module is loaded (a build loads what it uses first). */
function notLoaded(name: string): () => never {
  return () => {
    throw new Error(`[plugin ${name}] Used before its module was loaded`);
  };
}

/**
 * A plugin that stands in the registry by kind and name, and becomes `load()`'s plugin
 * (in place) once {@linkcode loadPlugins} is given it: a build imports the modules of the
 * built-ins it uses, not of all of them. Only view modes and providers are made lazy.
 *
 * @example
 * ```ts
 * import { lazyPlugin, loadPlugins } from "./registry.ts";
 * const full = lazyPlugin("view-mode", "slop:mine", async () => ({
 *   kind: "view-mode", name: "slop:mine", version: "1", render: (input) => ({ text: input.text }),
 * }));
 * await loadPlugins([full]);
 * ```
 */
export function lazyPlugin(
  kind: "view-mode" | "provider",
  name: string,
  load: () => Promise<Plugin>,
): Plugin {
  const stub = kind === "view-mode"
    ? { kind, name, version: "", render: notLoaded(name) } as Plugin
    : { kind, name } as Plugin;
  loaders.set(stub, load);
  return stub;
}

/**
 * Load the lazy plugins among `plugins` (others are left as they are): each stub takes the
 * loaded plugin's keys. `undefined` when none is lazy (nothing to wait for).
 *
 * @example
 * ```ts
 * import { loadPlugins } from "./registry.ts";
 * await loadPlugins([{ kind: "section", name: "mine", compose: () => [] }]); // nothing to load
 * ```
 */
export function loadPlugins(plugins: Iterable<Plugin | undefined>): Promise<void> | undefined {
  let waits: Promise<void>[] | undefined;
  for (const stub of plugins) {
    const load = stub && loaders.get(stub);
    if (!load) continue;
    // Files rendered at once ask together: one import, which all of them wait for.
    let wait = loading.get(stub);
    if (!wait) {
      wait = load().then((plugin) => {
        Object.assign(stub, plugin);
        loaders.delete(stub);
      });
      loading.set(stub, wait);
    }
    (waits ??= []).push(wait);
  }
  return waits && Promise.all(waits).then(() => {});
}

/**
 * Load the view modes a config may name (`skeleton` or `slop:skeleton`) that are still lazy;
 * `undefined` when none is (nothing to wait for: a build asks per file).
 *
 * @example
 * ```ts
 * import { createRegistry, loadViewModes } from "./registry.ts";
 * await loadViewModes(createRegistry([]), ["full"]);
 * ```
 */
export function loadViewModes(
  registry: Registry,
  views: Iterable<string>,
): Promise<void> | undefined {
  const plugins: Plugin[] = [];
  for (const view of views) {
    const plugin = findViewMode(registry, view);
    if (plugin && loaders.has(plugin)) plugins.push(plugin);
  }
  return plugins.length ? loadPlugins(plugins) : undefined;
}

/** Options of {@linkcode register}. */
export interface RegisterOptions {
  /** Where the plugin came from, for errors (`plugins[2]`). */
  where?: string;
}

/**
 * Validate and add a plugin. A plugin whose name is already registered
 * replaces it in place when `replace` is allowed (user plugins over built-ins).
 *
 * @example Replace a built-in section
 * ```ts
 * import { createRegistry, register } from "./registry.ts";
 * const registry = createRegistry([{ kind: "section", name: "slop:files", compose: () => [] }]);
 * register(registry, { kind: "section", name: "slop:files", compose: () => [] }, { where: "plugins[0]" });
 * ```
 */
export function register(registry: Registry, plugin: unknown, options: RegisterOptions = {}): void {
  const where = options.where ?? `position ${registry.plugins.length}`;
  if (registry.frozen) {
    throw new Error(
      `Cannot register plugin at ${where}: the registry is frozen once the build starts`,
    );
  }
  const valid = validatePlugin(plugin, where);
  const index = registry.plugins.findIndex((p) => p.name === valid.name);
  const taken = registry.plugins[index];
  // A section named "slop:full" took the view's place: the view was gone, and the section ran
  // where no section is looked for.
  if (taken && taken.kind !== valid.kind) {
    throw new TypeError(
      `Invalid plugin ${quote(valid.name)} at ${where}: a ${valid.kind} plugin cannot replace ` +
        `the ${taken.kind} plugin of that name (give it a name of its own)`,
    );
  }
  if (index >= 0) registry.plugins[index] = valid;
  else registry.plugins.push(valid);
}

/**
 * Register the user's plugins: duplicates among them are errors, a name that
 * a built-in has replaces the built-in.
 *
 * @example
 * ```ts
 * import { createRegistry, registerUserPlugins } from "./registry.ts";
 * const registry = createRegistry([]);
 * registerUserPlugins(registry, [{ kind: "section", name: "mine", compose: () => [] }]);
 * ```
 */
export function registerUserPlugins(registry: Registry, plugins: unknown[]): void {
  const seen = new Map<string, number>();
  plugins.forEach((plugin, index) => {
    const where = `plugins[${index}]`;
    const valid = validatePlugin(plugin, where);
    const first = seen.get(valid.name);
    if (first !== undefined) {
      throw new Error(
        `Duplicate plugin name "${valid.name}" at ${where}: already used at plugins[${first}]`,
      );
    }
    seen.set(valid.name, index);
    userPlugins.add(valid);
    register(registry, valid, { where });
  });
}

/** Plugins given by the user (`plugins` of the config). */
const userPlugins = new WeakSet<object>();

/**
 * Whether `plugin` is one of the config's (`plugins`), whose results slop reads with care (a
 * getter read once); slop's own are not (a copy of each block would cost the build server its
 * records of unchanged blocks).
 *
 * @example
 * ```ts
 * import { isUserPlugin } from "./registry.ts";
 * isUserPlugin({ kind: "section", name: "slop:tree" }); // false
 * ```
 */
export function isUserPlugin(plugin: object): boolean {
  return userPlugins.has(plugin);
}

/**
 * What slop hands a config's view mode joins its cache key with its code: a render stored when
 * `ctx` held less is made again. 2: `ctx.options` holds the plugin's own `options` under the
 * entry's (it held the entry's alone, and a cached render made so was served after the change).
 */
const VIEW_CONTEXT_VERSION = "2";

/** The cache version of each plugin whose code joins its key, by plugin object. */
const codeVersions = new WeakMap<object, string>();

/**
 * The version a view mode's cached outputs are stored under. A built-in
 * (`slop:` name, not given in the config's `plugins`) has its `version`; any
 * other plugin has its `version` followed by a hash of the source text of
 * its hooks (`render`, `accepts`, `cacheKey`, ... by `Function.prototype.toString`)
 * and of its data (`options`, `extensions`): an edit of the hook or a new
 * option gives a new key even when `version` stays (it is still there, for
 * changes the hash cannot see, such as a module the hook calls).
 *
 * @example
 * ```ts
 * import { cacheVersion } from "./registry.ts";
 * const plugin = {
 *   kind: "view-mode" as const, name: "shout", version: "1", options: { marks: 2 },
 *   render: (file: { text: string }) => file.text.toUpperCase(),
 * };
 * cacheVersion(plugin); // "1+" followed by 16 hex digits
 * ```
 */
export function cacheVersion(plugin: ViewModePlugin): string {
  if (plugin.name.startsWith("slop:") && !userPlugins.has(plugin)) return plugin.version;
  // A lazy stub becomes its plugin once loaded: its key is not kept before then.
  const lazy = loaders.has(plugin);
  let version = lazy ? undefined : codeVersions.get(plugin);
  if (version !== undefined) return version;
  const hooks: string[] = [];
  const record = plugin as unknown as Record<string, unknown>;
  for (const key of Object.keys(record).sort()) {
    const value = record[key];
    if (typeof value === "function") {
      hooks.push(`${key}\0${Function.prototype.toString.call(value)}`);
    }
  }
  const data = canonicalJson([plugin.options ?? null, plugin.extensions ?? null]);
  const hash = sha256Hex(`${VIEW_CONTEXT_VERSION}\0${hooks.join("\0")}\0${data}`).slice(0, 16);
  version = `${plugin.version}+${hash}`;
  if (!lazy) codeVersions.set(plugin, version);
  return version;
}

/** Freeze the registry: later `register` calls throw. */
export function freeze(registry: Registry): Registry {
  registry.frozen = true;
  Object.freeze(registry.plugins);
  return registry;
}

function validatePlugin(plugin: unknown, where: string): Plugin {
  try {
    return checkPlugin(plugin, where);
  } catch (error) {
    if (error instanceof TypeError && error.message.startsWith("Invalid ")) throw error;
    // A getter or a proxy that throws when the plugin is read.
    throw new TypeError(`Invalid plugin at ${where}: cannot read it: ${errorText(error)}`);
  }
}

function checkPlugin(plugin: unknown, where: string): Plugin {
  if (typeof plugin !== "object" || plugin === null || Array.isArray(plugin)) {
    throw new TypeError(`Invalid plugin at ${where}: expected an object, got ${describe(plugin)}`);
  }
  const p = plugin as Record<string, unknown>;
  if (typeof p.name !== "string" || p.name.trim() === "") {
    throw new TypeError(`Invalid plugin at ${where}: missing a "name"`);
  }
  // A name is shown in every error and warning of the plugin's, and in the manifest: a line
  // break or an escape sequence in it would forge lines or colour a terminal.
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(p.name)) {
    throw new TypeError(
      `Invalid plugin ${quote(p.name)} at ${where}: its "name" holds a control character`,
    );
  }
  const label = `plugin ${quote(p.name)} at ${where}`;
  const kind = p.kind as PluginKind;
  if (typeof kind !== "string" || !Object.hasOwn(KEYS, kind)) { // own: not "constructor"
    throw new TypeError(
      `Invalid ${label}: "kind" must be one of ${
        Object.keys(KEYS).map((k) => `"${k}"`).join(", ")
      }, got ${describe(p.kind)}`,
    );
  }
  const spec = KEYS[kind];
  // Unknown keys first: a misspelt hook is reported as such, not as a missing one.
  const allowed = ["kind", "name", ...spec.required, ...spec.optional];
  for (const key of Object.keys(p)) {
    if (!allowed.includes(key)) {
      const hint = closest(key, allowed);
      throw new TypeError(
        `Invalid ${label}: unknown key ${quote(key)} for ${
          /^[aeio]/.test(kind) ? "an" : "a"
        } ${kind} plugin` +
          (hint ? ` (did you mean "${hint}"?)` : ""),
      );
    }
  }
  for (const key of spec.required) {
    if (!(key in p)) throw new TypeError(`Invalid ${label}: missing "${key}"`);
  }
  for (const key of [...spec.required, ...spec.optional]) {
    if (DATA_KEYS.has(key)) continue;
    if (key in p && typeof p[key] !== "function") {
      throw new TypeError(`Invalid ${label}: "${key}" must be a function, got ${describe(p[key])}`);
    }
  }
  if (kind === "view-mode") checkViewModeData(p, label);
  return p as unknown as Plugin;
}

/** Check a view mode's data keys: `version`, `extensions`, `timeoutMs`, `options`. */
function checkViewModeData(p: Record<string, unknown>, label: string): void {
  if (typeof p.version !== "string") {
    throw new TypeError(`Invalid ${label}: "version" must be a string`);
  }
  if (
    p.extensions !== undefined &&
    !(Array.isArray(p.extensions) && p.extensions.every((e) => typeof e === "string"))
  ) {
    throw new TypeError(`Invalid ${label}: "extensions" must be an array of strings`);
  }
  // A timer takes at most MAX_TIMER_MS: past it, it fired at once (every hook "did not settle").
  if (
    p.timeoutMs !== undefined &&
    !(typeof p.timeoutMs === "number" && p.timeoutMs > 0 && p.timeoutMs <= MAX_TIMER_MS)
  ) {
    throw new TypeError(
      `Invalid ${label}: "timeoutMs" must be a positive number of milliseconds, at most ` +
        `${MAX_TIMER_MS}`,
    );
  }
  if (p.options !== undefined && !isData(p.options)) {
    throw new TypeError(
      `Invalid ${label}: "options" must be plain data (objects, arrays, strings, numbers, ` +
        `booleans, null; no cycles, at most ${MAX_DATA_DEPTH} levels deep)`,
    );
  }
}

/** Plugin keys that hold data, not hooks. */
const DATA_KEYS = new Set(["version", "extensions", "timeoutMs", "options"]);

/** How deep plugin options may nest (their canonical JSON is built by recursion). */
const MAX_DATA_DEPTH = 64;

/**
 * Whether a value is JSON data all the way down (no functions, symbols, cycles or class
 * instances), at most {@linkcode MAX_DATA_DEPTH} levels deep.
 */
function isData(value: unknown, seen = new Set<object>()): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value !== "object" || seen.has(value) || seen.size >= MAX_DATA_DEPTH) return false;
  const proto = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return false;
  seen.add(value);
  const ok = Object.values(value).every((v) => isData(v, seen));
  seen.delete(value);
  return ok;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return quote(value);
  return typeof value;
}

/** Lists of a frozen registry, by kind and by looked-up view name (a build asks per file). */
const frozenLists = new WeakMap<readonly Plugin[], Map<string, unknown>>();

/** `compute()` once per frozen plugin list and `key`; every time while plugins may be added. */
function ofFrozen<T>(registry: Registry, key: string, compute: () => T): T {
  if (!registry.frozen || !Object.isFrozen(registry.plugins)) return compute();
  let lists = frozenLists.get(registry.plugins);
  if (!lists) frozenLists.set(registry.plugins, lists = new Map());
  if (!lists.has(key)) lists.set(key, compute());
  return lists.get(key) as T;
}

/** Plugins of one kind, in registration order (a copy). */
function ofKind<T extends Plugin>(registry: Registry, kind: PluginKind): T[] {
  return [
    ...ofFrozen(registry, `kind\0${kind}`, () => registry.plugins.filter((p) => p.kind === kind)),
  ] as T[];
}

/** View mode plugins by name. */
function viewModes(registry: Registry): ViewModePlugin[] {
  return ofKind(registry, "view-mode");
}

/** Section plugins in registration order. */
export function sections(registry: Registry): SectionPlugin[] {
  return ofKind(registry, "section");
}

/** Ordering rules in registration order. */
export function orderingRules(registry: Registry): OrderingPlugin[] {
  return ofKind(registry, "ordering");
}

/** Provider plugins. */
export function providers(registry: Registry): ProviderPlugin[] {
  return ofKind(registry, "provider");
}

/**
 * Find a view mode by the name a config uses: `skeleton` finds `skeleton`,
 * then `slop:skeleton`.
 *
 * @example
 * ```ts
 * import { createRegistry, findViewMode } from "./registry.ts";
 * findViewMode(createRegistry([]), "full"); // undefined
 * ```
 */
export function findViewMode(registry: Registry, view: string): ViewModePlugin | undefined {
  return ofFrozen(registry, `view\0${view}`, () => {
    const all = viewModes(registry);
    return all.find((p) => p.name === view) ?? all.find((p) => p.name === `slop:${view}`);
  });
}

/** The names a config may use for view modes (short names for built-ins). */
export function viewNames(registry: Registry): string[] {
  return viewModes(registry).map((p) => p.name.replace(/^slop:/, ""));
}

/** Find a provider by `anthropic` or `slop:anthropic`. */
export function findProvider(registry: Registry, name: string): ProviderPlugin | undefined {
  const all = providers(registry);
  return all.find((p) => p.name === name) ?? all.find((p) => p.name === `slop:${name}`);
}

/** Options of {@linkcode callHook}. */
export interface CallHookOptions {
  /** File the hook works on. */
  path?: string;
  /** Milliseconds before a hook that never settles is failed. @default {60000} */
  timeoutMs?: number;
}

/**
 * Run a plugin hook; any throw, rejection or timeout becomes a
 * {@linkcode PluginError} naming the plugin, hook and file.
 *
 * @example
 * ```ts
 * import { callHook } from "./registry.ts";
 * const n = await callHook({ name: "demo" }, "render", () => 1);
 * ```
 */
export async function callHook<T>(
  plugin: { name: string },
  hook: string,
  fn: () => T | Promise<T>,
  options: CallHookOptions = {},
): Promise<T> {
  const where = options.path ? ` on "${options.path}"` : "";
  const timeoutMs = options.timeoutMs ?? 60_000;
  // A config's plugin's hook that never returns holds the thread, where no timer fails it: the
  // `slop` command's watch ends the process with this message (`hook_watchdog.ts`).
  const watched = userPlugins.has(plugin);
  const stalled = watched
    ? `[plugin ${plugin.name}] Hook "${hook}" ran for over ${Math.round(timeoutMs / 100) / 10} s` +
      `${where} without returning`
    : "";
  let settled = () => {};
  const call = () => {
    const running = watchedCall(fn, { limitMs: timeoutMs, message: stalled, watched });
    settled = running.settled;
    return running.value;
  };
  try {
    const late = () =>
      new PluginError(
        plugin.name,
        hook,
        `Hook "${hook}" did not settle within ${timeoutMs} ms${where}`,
        { path: options.path },
      );
    return await settleWithin(Promise.resolve().then(call), timeoutMs, late);
  } catch (error) {
    if (error instanceof PluginError) throw error;
    const detail = hookErrorText(error);
    throw new PluginError(plugin.name, hook, `Hook "${hook}" failed${where}: ${detail}`, {
      path: options.path,
      cause: error,
    });
  } finally {
    settled();
  }
}

/**
 * Call a view mode's `prepare` hook with the files it will render; returns what tells it the
 * work is done, or `undefined`. Getting ready is an optimization that never changes what a view
 * renders, so a hook that throws, gives something else than a function (an `async prepare`'s
 * promise, a number) or whose returned function throws is passed over: the view renders, and
 * reports its own failures, as usual. `warn` is told once what was passed over, naming the
 * plugin (a plugin's author would not know their hook never ran).
 *
 * @example
 * ```ts
 * import { prepareView } from "./registry.ts";
 * const release = prepareView({
 *   kind: "view-mode", name: "mine", version: "1", render: () => "", prepare: () => 5 as never,
 * }, [{ path: "a.py", chars: 10 }]); // undefined
 * ```
 */
export function prepareView(
  plugin: ViewModePlugin,
  files: Array<{ path: string; chars: number }>,
  options: { warn?: (message: string) => void } = {},
): (() => void) | undefined {
  const passedOver = (what: string) =>
    options.warn?.(`[plugin ${plugin.name}] ${what} (passed over: the view renders as usual)`);
  let release: unknown;
  try {
    release = plugin.prepare?.(files);
  } catch (error) {
    passedOver(`Hook "prepare" failed: ${hookErrorText(error)}`);
    return undefined;
  }
  if (typeof release !== "function") {
    // A promise that rejects later is the plugin's, not an error no one listens for.
    if (release instanceof Promise) release.catch(() => {});
    if (release !== undefined) {
      passedOver(`Hook "prepare" returned ${typeName(release)}, not a function or nothing`);
    }
    return undefined;
  }
  return () => {
    try {
      (release as () => void)();
    } catch (error) {
      // As above: the views have rendered already.
      passedOver(`Hook "prepare"'s release failed: ${hookErrorText(error)}`);
    }
  };
}
