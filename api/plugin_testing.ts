/**
 * Test helpers for plugin authors: build a small project made of strings, or
 * render one string with a view mode, through the same pipeline `slop build`
 * runs (secret redaction, fallbacks, option merging, hook errors), so a
 * plugin's unit test shows what a build would show.
 *
 * @module
 */

import { isAbsolute, join, relative, resolve } from "node:path";
import { loadConfig } from "../pipeline/config.ts";
import { build, type BuildResult } from "../pipeline/build.ts";
import { defaultPlugins } from "../plugins/defaults.ts";
import { normalizeEntryPath } from "../pipeline/helpers.ts";
import type { SlopConfig, ViewModePlugin } from "../pipeline/types.ts";

/**
 * Build a project whose files are `files` (path -> text, `/`-separated paths
 * relative to the project), made in a temporary folder that is removed
 * afterwards. Nothing is written or remembered and the cache is off unless
 * `config.cache` says otherwise; the folder is no git work tree, so the files
 * come in their first order (largest first). `config` is a config as
 * `slop.config.ts` exports it: your plugins go in its `plugins`.
 *
 * @example A section plugin's block in a build
 * ```ts
 * import { buildFiles } from "./plugin_testing.ts";
 * const result = await buildFiles({ "src/a.ts": "// TODO: more\n" }, {
 *   plugins: [{
 *     kind: "section",
 *     name: "note",
 *     compose: () => [{ id: "note", section: "note", stability: "stable", text: "Hi\n\n" }],
 *   }],
 * });
 * result.blocks.find((b) => b.id === "note")?.text; // "Hi\n\n"
 * ```
 */
export async function buildFiles(
  files: Record<string, string>,
  config: SlopConfig = {},
): Promise<BuildResult> {
  const dir = await Deno.makeTempDir({ prefix: "slop_plugin_test_" });
  try {
    for (const [path, text] of Object.entries(files)) {
      const at = resolve(dir, path);
      const inside = relative(dir, at);
      if (!inside || inside.split(/[\\/]/)[0] === ".." || isAbsolute(inside)) {
        throw new Error(`buildFiles: the path "${path}" is not inside the project`);
      }
      await Deno.mkdir(join(at, ".."), { recursive: true });
      await Deno.writeTextFile(at, text);
    }
    const inline: SlopConfig = { cache: { enabled: false }, ...config };
    const resolved = await loadConfig({ cwd: dir, inline });
    return await build(resolved, { builtins: defaultPlugins(), write: false, remember: false });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Options of {@linkcode renderView}. */
export interface RenderViewOptions {
  /** The file entry's `options` (`ctx.options`, over the plugin's own). @default {{}} */
  options?: Record<string, unknown>;
  /** The rest of the config (other plugins, `secrets`, `provider`); its `files` are replaced. */
  config?: SlopConfig;
}

/** What {@linkcode renderView} gives: the file as the files section would show it. */
export interface RenderedView {
  /** The rendered text (fenced by the files section when `fenced`). */
  text: string;
  /** The view that made it: the plugin's name, or the view it fell back to. */
  view: string;
  /** Whether the files section fences it as code. */
  fenced: boolean;
  /** The fence's language. */
  language: string;
  /** The manifest's notes for the file (a fallback's reason). */
  notes: string[];
  /** The build's warnings (`ctx.warn` as `[plugin name] ...`). */
  warnings: string[];
}

/**
 * Render `text`, as the file `path`, with the view mode `plugin`, in a build
 * of that one file ({@linkcode buildFiles}). A render that fails, or a file
 * the build skips, is thrown as the error the build's summary would show
 * (`[plugin proto] Hook "render" failed on "a.proto": ...`).
 *
 * @example A view mode's output for one string
 * ```ts
 * import { renderView } from "./plugin_testing.ts";
 * import type { ViewModePlugin } from "../pipeline/types.ts";
 * const upper: ViewModePlugin = {
 *   kind: "view-mode",
 *   name: "upper",
 *   version: "1",
 *   render: (file, ctx) => file.text.toUpperCase() + String(ctx.options.mark ?? ""),
 * };
 * const out = await renderView(upper, "notes.txt", "hi", { options: { mark: "!" } });
 * out.text; // "HI!"
 * ```
 */
export async function renderView(
  plugin: ViewModePlugin,
  path: string,
  text: string,
  options: RenderViewOptions = {},
): Promise<RenderedView> {
  const config = options.config ?? {};
  const entry = { path, view: plugin.name, options: options.options ?? {} };
  const result = await buildFiles({ [path]: text }, {
    ...config,
    files: [entry],
    plugins: [...(config.plugins ?? []), plugin],
  });
  const file = result.files.find((f) => f.path === normalizeEntryPath(path));
  if (!file) throw new Error(`renderView: the build has no file "${path}"`);
  if (file.status !== "rendered" || file.text === undefined) {
    throw new Error(file.reason ?? `"${path}" was ${file.status}`);
  }
  return {
    text: file.text,
    view: file.view,
    fenced: file.fenced,
    language: file.language,
    notes: file.notes ?? [],
    warnings: result.warnings,
  };
}
