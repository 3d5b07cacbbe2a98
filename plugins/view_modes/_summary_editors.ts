/**
 * `summary` rows of files an editor writes, which were shown as their first lines: an Xcode
 * project (`.pbxproj`: its targets, build configurations, bundle ids, Swift packages and how many
 * objects of each kind it holds) and Godot's text scenes and resources (`.tscn`, `.escn`,
 * `.tres`: the node tree's names and types, the scripts and scenes it uses, its resources by
 * type, its signal connections). Each reads the text once, line by line.
 *
 * @module
 */

import type { FormatRowOptions } from "./_summary_formats.ts";
import { counted } from "./_counts.ts";
import { formatCount } from "../../pipeline/helpers.ts";

/** An object's first line in a `.pbxproj` section: its 24-digit id, a comment, `= {`. */
const PBX_OBJECT = /^\s*[0-9A-Fa-f]{24}\b[^=\n]*=\s*\{/;
const PBX_SECTION = /^\/\* Begin (\w+) section \*\/$/;
const PBX_TARGETS = new Set(["PBXNativeTarget", "PBXAggregateTarget", "PBXLegacyTarget"]);

/** A `key = value;` line's value, quotes taken off. */
function pbxValue(line: string, key: string): string | undefined {
  const m = line.match(new RegExp(`^\\s*${key} = ("(?:[^"\\\\]|\\\\.)*"|[^;\\s]+);`));
  return m?.[1].replace(/^"(.*)"$/, "$1");
}

/**
 * An Xcode project's rows; `undefined` when the text has no object section.
 *
 * @example
 * ```ts
 * import { pbxprojRows } from "./_summary_editors.ts";
 * const code = (s: string) => `\`${s}\``;
 * const list = (names: string[]) => names.map(code).join(", ");
 * const text = "/* Begin PBXNativeTarget section *\/\n\t\t000000000000000000000001 /* App *\/ = {\n" +
 *   "\t\t\tname = App;\n\t\t\tproductType = \"com.apple.product-type.application\";\n\t\t};\n" +
 *   "/* End PBXNativeTarget section *\/\n";
 * pbxprojRows(text, { cut: (l) => l, list, code })?.[1]; // "- targets: `App` (application)"
 * ```
 */
export function pbxprojRows(text: string, { list, code }: FormatRowOptions): string[] | undefined {
  const counts = new Map<string, number>();
  const targets: Array<{ name?: string; type?: string }> = [];
  const configurations = new Set<string>();
  const bundles = new Set<string>();
  const packages = new Set<string>();
  let section = "";
  // Braces open before the line, and at the section's start: an object starts at the section's
  // depth (a target's attributes in the project object are keyed by ids too, one level down).
  let depth = 0;
  let base = 0;
  for (const line of text.split("\n")) {
    const before = depth;
    const bare = line.replace(/"(?:[^"\\]|\\.)*"|\/\*.*?\*\//g, "");
    for (const c of bare) depth += c === "{" ? 1 : c === "}" ? -1 : 0;
    const begin = line.match(PBX_SECTION);
    if (begin) {
      section = begin[1];
      base = depth;
      continue;
    }
    if (line.startsWith("/* End ")) {
      section = "";
      continue;
    }
    if (!section) continue;
    if (before === base && PBX_OBJECT.test(line)) {
      counts.set(section, (counts.get(section) ?? 0) + 1);
      if (PBX_TARGETS.has(section)) targets.push({});
    }
    const target = PBX_TARGETS.has(section) ? targets.at(-1) : undefined;
    if (target) {
      target.name ??= pbxValue(line, "name");
      const type = pbxValue(line, "productType");
      if (type) target.type = type.replace(/^com\.apple\.product-type\./, "");
    } else if (section === "XCBuildConfiguration") {
      const name = pbxValue(line, "name");
      if (name) configurations.add(name);
      const bundle = pbxValue(line, "PRODUCT_BUNDLE_IDENTIFIER");
      if (bundle) bundles.add(bundle);
    } else if (section === "XCRemoteSwiftPackageReference") {
      const url = pbxValue(line, "repositoryURL");
      if (url) packages.add(url);
    }
  }
  if (!counts.size) return undefined;
  const named = targets.filter((t) => t.name);
  const rows = [
    named.length &&
    `- targets: ${labelled(named.map((t) => [t.name!, t.type]), code)}`,
    configurations.size && `- build configurations: ${list([...configurations])}`,
    bundles.size && `- bundle ids: ${list([...bundles])}`,
    packages.size && `- packages: ${list([...packages])}`,
    `- objects: ${list([...counts].map(([kind, n]) => `${kind} × ${formatCount(n)}`))}`,
  ];
  return [`**Xcode project**, ${lines(text)}`, ...rows.filter((r): r is string => !!r)];
}

/** A `[tag key=value ...]` heading of a Godot text file: its tag and attributes. */
const GODOT_HEADING = /^\[(\w+)((?:\s+\w+=(?:"[^"\n]*"|[^\s\]]+))*)\s*\]\s*$/;
const GODOT_ATTRIBUTE = /(\w+)=("[^"\n]*"|[^\s\]]+)/g;

/** A Godot heading's attributes, quotes taken off. */
function godotAttributes(rest: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of rest.matchAll(GODOT_ATTRIBUTE)) found.set(m[1], m[2].replace(/^"(.*)"$/, "$1"));
  return found;
}

/**
 * A Godot scene's or resource's rows; `undefined` when the text opens with no `[gd_scene ...]`
 * or `[gd_resource ...]` heading.
 *
 * @example
 * ```ts
 * import { godotRows } from "./_summary_editors.ts";
 * const code = (s: string) => `\`${s}\``;
 * const list = (names: string[]) => names.map(code).join(", ");
 * const text = '[gd_scene format=3]\n\n[node name="Main" type="Node2D"]\n';
 * godotRows(text, { cut: (l) => l, list, code })?.[1]; // "- nodes (1): `Main` (Node2D)"
 * ```
 */
export function godotRows(text: string, { list, code }: FormatRowOptions): string[] | undefined {
  const first = text.trimStart().split("\n", 1)[0].match(GODOT_HEADING);
  if (!first || (first[1] !== "gd_scene" && first[1] !== "gd_resource")) return undefined;
  const external = new Map<string, { type: string; path: string }>();
  const resources = new Map<string, number>();
  const nodes: Array<[string, string | undefined]> = [];
  const connections: string[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith("[")) continue;
    const heading = line.match(GODOT_HEADING);
    if (!heading) continue;
    const at = godotAttributes(heading[2]);
    const type = at.get("type") ?? "";
    if (heading[1] === "ext_resource") {
      external.set(at.get("id") ?? "", { type, path: at.get("path") ?? "" });
      if (type !== "Script" && type !== "PackedScene") {
        resources.set(type, (resources.get(type) ?? 0) + 1);
      }
    } else if (heading[1] === "sub_resource") {
      resources.set(type, (resources.get(type) ?? 0) + 1);
    } else if (heading[1] === "node") {
      // An instanced scene's node has no type: the scene it instances says what it is.
      const instance = at.get("instance")?.match(/^ExtResource\(\s*"?([^")]*)"?\s*\)$/)?.[1];
      const kind = type || (instance !== undefined ? external.get(instance)?.path : undefined);
      nodes.push([at.get("name") ?? "", kind || undefined]);
    } else if (heading[1] === "connection") {
      connections.push(
        `${at.get("from")}.${at.get("signal")} -> ${at.get("to")}.${at.get("method")}`,
      );
    }
  }
  const paths = (kind: string) =>
    [...external.values()].filter((r) => r.type === kind).map((r) => r.path);
  const scripts = paths("Script");
  const scenes = paths("PackedScene");
  const resourceType = first[1] === "gd_resource"
    ? godotAttributes(first[2]).get("type")
    : undefined;
  const label = first[1] === "gd_scene"
    ? "**Godot scene**"
    : `**Godot resource**${resourceType ? ` (\`${resourceType}\`)` : ""}`;
  const rows = [
    nodes.length &&
    `- nodes (${formatCount(nodes.length)}): ${labelled(nodes, code)}`,
    scripts.length && `- scripts: ${list(scripts)}`,
    scenes.length && `- scenes: ${list(scenes)}`,
    resources.size &&
    `- resources: ${list([...resources].map(([t, n]) => `${t} × ${formatCount(n)}`))}`,
    connections.length && `- connections: ${list(connections)}`,
  ];
  return [`${label}, ${lines(text)}`, ...rows.filter((r): r is string => !!r)];
}

/** Names listed with what they are, at most. */
const LABELLED = 20;

/** Names as inline code, each with its kind in brackets, at most {@linkcode LABELLED}. */
function labelled(items: Array<[string, string | undefined]>, code: (s: string) => string): string {
  const shown = items.slice(0, LABELLED).map(([name, kind]) =>
    kind ? `${code(name)} (${kind})` : code(name)
  ).join(", ");
  return items.length > LABELLED
    ? `${shown}, ... ${formatCount(items.length - LABELLED)} more`
    : shown;
}

function lines(text: string): string {
  let count = 0;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) count++;
  if (!text.endsWith("\n")) count++;
  return counted(count, "line");
}
