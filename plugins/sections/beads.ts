/**
 * The `beads` section: `## Beads Mode: Progress Track`, from `bd list
 * --json --all` when `bd` is on PATH, else from `.beads/issues.jsonl`.
 * Closed issues are one comma-separated id list; active ones are bullets
 * with title, id, status, priority and a trimmed description. Volatile, so
 * it sits after the stable prefix.
 *
 * @module
 */

import { join } from "../../pipeline/paths.ts";
import { MAX_TIMER_MS, printablePath } from "../../pipeline/helpers.ts";
import type { Block, BuildState, SectionContext, SectionPlugin } from "../../pipeline/types.ts";
import { type BeadsIssue, loadBeads } from "./_beads.ts";

export type { BeadsIssue } from "./_beads.ts";

/** Options of {@linkcode beadsSection}. */
export interface BeadsOptions {
  /** On, off, or required; unset follows the config's `beads` (on when `.beads/` exists). */
  enabled?: boolean;
  /** The `bd` command to run, or `false` to read only `.beads/issues.jsonl`. @default {"bd"} */
  bd?: string | false;
  /**
   * How long `bd list` may run, in ms: past it, it is stopped and `.beads/issues.jsonl` read
   * instead, with a warning (a `bd` waiting on its database's lock held the build). @default {30000}
   */
  timeoutMs?: number;
  /** Longest description in a bullet, in characters (whitespace collapsed). @default {160} */
  descriptionChars?: number;
  /** Longest title in a bullet, in characters (whitespace collapsed). @default {200} */
  titleChars?: number;
  /**
   * Most active issues listed as bullets: the first in the section's order (status, priority,
   * id); a line counts the rest. @default {500}
   */
  maxActive?: number;
  /**
   * Most closed issues listed by id: the most recently closed (`closed_at`, ties by id), shown in
   * id order; the line counts the rest. @default {500}
   */
  maxClosed?: number;
}

/** Default of {@linkcode BeadsOptions.maxActive}. */
const MAX_ACTIVE = 500;
/** Default of {@linkcode BeadsOptions.maxClosed}. */
const MAX_CLOSED = 500;

/** Longest custom status shown, in characters; bd's own statuses are shorter. */
const STATUS_CHARS = 40;

/** Options of {@linkcode renderBeads}. */
export interface RenderOptions extends BeadsOptions {
  /** Where a description may be cut (the section's `ctx.cutOutsideSecrets`): see trimDescription. */
  cut?: SectionContext["cutOutsideSecrets"];
  /** Where the issues came from (`bd`, `.beads/issues.jsonl`): where a capped list says to look. @default {"bd"} */
  source?: string;
}

/** Active statuses in the order they are listed; other (custom) statuses follow, by name. */
const ACTIVE_STATUS_ORDER: string[] = [
  "in_progress",
  "hooked",
  "blocked",
  "open",
  "deferred",
  "pinned",
];

/**
 * Compare ids the way people read them: digit runs by value, so `bd-a.2`
 * comes before `bd-a.10`. Locale-independent.
 *
 * @example
 * ```ts
 * import { compareIds } from "./beads.ts";
 * ["bd-a.10", "bd-a.2"].sort(compareIds); // ["bd-a.2", "bd-a.10"]
 * ```
 */
export function compareIds(a: string, b: string): number {
  const pa = a.match(/\d+|\D+/g) ?? [];
  const pb = b.match(/\d+|\D+/g) ?? [];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i], y = pb[i];
    if (x === y) continue;
    const dx = /^\d/.test(x), dy = /^\d/.test(y);
    if (dx && dy) {
      const diff = Number(x) - Number(y);
      if (diff) return diff;
      return x.length - y.length;
    }
    return x < y ? -1 : 1;
  }
  return pa.length - pb.length || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * Collapse whitespace and cut at a word boundary, marking the cut with `...`. With `cut` (the
 * section's `ctx.cutOutsideSecrets`), the cut never falls inside a secret, nor right before the
 * mark: the section is redacted after it is composed, and a key cut in two keeps a first part
 * that no rule knows; cut before it, the key is left out whole.
 *
 * @example
 * ```ts
 * import { trimDescription } from "./beads.ts";
 * trimDescription("one  two\nthree four", 12); // "one two..."
 * ```
 */
export function trimDescription(
  text: string,
  maxChars = 160,
  options: { cut?: SectionContext["cutOutsideSecrets"] } = {},
): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= maxChars) return flat;
  const space = flat.lastIndexOf(" ", maxChars - 1);
  let at = space > maxChars / 2 ? space : maxChars;
  for (;;) {
    const kept = flat.slice(0, at).replace(/[\s.,;:]+$/, "");
    at = options.cut?.(flat, kept.length, { mark: "..." }) ?? kept.length;
    if (at === kept.length) return `${kept}...`;
  }
}

/**
 * The section's markdown for a list of issues, or `""` when nothing is
 * left after dropping tombstones. Duplicate ids keep the last occurrence.
 *
 * @example
 * ```ts
 * import { renderBeads } from "./beads.ts";
 * renderBeads([
 *   { id: "bd-1", title: "Ship", status: "closed", description: "" },
 *   { id: "bd-2", title: "Test", status: "open", priority: 1, description: "Add tests" },
 * ]);
 * // "## Beads Mode: Progress Track\n\n**Completed (1):** bd-1\n\n**Active (1):**\n\n" +
 * // "- **Test** (bd-2, open, P1): Add tests\n\n"
 * ```
 */
export function renderBeads(issues: BeadsIssue[], options: RenderOptions = {}): string {
  const byId = new Map<string, BeadsIssue>();
  for (const issue of issues) {
    byId.delete(issue.id);
    byId.set(issue.id, issue);
  }
  const live = [...byId.values()].filter((i) => i.status !== "tombstone");
  if (!live.length) return "";
  // An id is shown as written but for its control characters and line breaks, escaped
  // (`bd-1\n~~~`): raw, they ended the bullet, and a fence after one ran to the document's end.
  // Each list is capped (a large tracker made a section of megabytes); which issues are kept
  // depends only on the issues, so the same export gives the same bytes.
  const closedAll = live.filter((i) => i.status === "closed");
  const closed = closedAll.sort(compareRecent).slice(0, options.maxClosed ?? MAX_CLOSED)
    .map((i) => i.id).sort(compareIds).map(printablePath);
  const activeAll = live.filter((i) => i.status !== "closed").sort(compareActive);
  const active = activeAll.slice(0, options.maxActive ?? MAX_ACTIVE);
  const source = options.source ?? "bd";
  const where = (bd: string) => source.endsWith(".jsonl") ? `"${source}"` : `\`${source} ${bd}\``;
  const parts = ["## Beads Mode: Progress Track\n\n"];
  if (closedAll.length) {
    const rest = closedAll.length - closed.length;
    const more = rest
      ? `${closed.length ? ", and " : ""}${rest} older ${rest === 1 ? "one" : "ones"} (see ${
        where("list --status closed")
      })`
      : "";
    parts.push(`**Completed (${closedAll.length}):** ${closed.join(", ")}${more}\n\n`);
  }
  if (activeAll.length) {
    const max = options.descriptionChars ?? 160;
    const cut = { cut: options.cut };
    const bullets = active.map((issue) => {
      const title = trimDescription(issue.title, options.titleChars ?? 200, cut) || "(untitled)";
      const status = trimDescription(issue.status, STATUS_CHARS, cut);
      const priority = issue.priority === undefined ? "" : `, P${issue.priority}`;
      const description = trimDescription(issue.description, max, cut);
      return `- **${title}** (${printablePath(issue.id)}, ${status}${priority})${
        description ? `: ${description}` : ""
      }\n`;
    });
    const rest = activeAll.length - active.length;
    if (rest) {
      const s = rest === 1 ? "" : "s";
      bullets.push(`- ... and ${rest} more active issue${s} (see ${where("list")})\n`);
    }
    parts.push(`**Active (${activeAll.length}):**\n\n${bullets.join("")}\n`);
  }
  return parts.join("");
}

/** Most recently closed first; an issue with no time after those with one; ties by id. */
function compareRecent(a: BeadsIssue, b: BeadsIssue): number {
  return (b.closedAt ?? -Infinity) - (a.closedAt ?? -Infinity) || compareIds(a.id, b.id);
}

function statusRank(status: string): number {
  const i = ACTIVE_STATUS_ORDER.indexOf(status);
  return i < 0 ? ACTIVE_STATUS_ORDER.length : i;
}

function compareActive(a: BeadsIssue, b: BeadsIssue): number {
  return statusRank(a.status) - statusRank(b.status) ||
    (a.status < b.status ? -1 : a.status > b.status ? 1 : 0) ||
    (a.priority ?? Infinity) - (b.priority ?? Infinity) ||
    compareIds(a.id, b.id);
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

/**
 * The `beads` section plugin. It is on when the root has a `.beads/`
 * folder; `beads: false` in the config turns it off and `beads: true`
 * makes a missing Beads project an error.
 *
 * @example
 * ```ts
 * import { beadsSection } from "./beads.ts";
 * beadsSection().name; // "slop:beads"
 * ```
 */
export function beadsSection(options: BeadsOptions = {}): SectionPlugin {
  for (const key of ["maxActive", "maxClosed"] as const) {
    const value = options[key];
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0)) {
      throw new Error(
        `[plugin slop:beads] Invalid option "${key}": expected a whole number of 0 or more, got ${
          JSON.stringify(value) ?? String(value)
        }`,
      );
    }
  }
  const timeout = options.timeoutMs;
  if (
    timeout !== undefined &&
    !(Number.isSafeInteger(timeout) && timeout >= 1 && timeout <= MAX_TIMER_MS)
  ) {
    throw new Error(
      `[plugin slop:beads] Invalid option "timeoutMs": expected a whole number of milliseconds ` +
        `from 1 to ${MAX_TIMER_MS}, got ${JSON.stringify(timeout) ?? String(timeout)}`,
    );
  }
  return {
    kind: "section",
    name: "slop:beads",
    async compose(state: BuildState, ctx: SectionContext): Promise<Block[]> {
      const setting = options.enabled ?? state.config.beads;
      if (setting === false) return [];
      if (!await isDirectory(join(state.root, ".beads"))) {
        if (setting === true) {
          throw new Error(
            `No Beads project in "${state.root}": ".beads/" not found (the config sets "beads: true")`,
          );
        }
        return [];
      }
      const loaded = await loadBeads(state.root, {
        bd: options.bd,
        timeoutMs: options.timeoutMs,
        allowOutsideRoot: state.config.allowOutsideRoot,
      });
      if (!loaded) {
        if (setting === true) {
          ctx.warn(
            `[plugin slop:beads] No Beads issues: no "bd" to run and no ".beads/issues.jsonl"`,
          );
        }
        return [];
      }
      loaded.warnings.forEach((w) => ctx.warn(`[plugin slop:beads] ${w}`));
      const text = renderBeads(loaded.issues, {
        ...options,
        cut: ctx.cutOutsideSecrets,
        source: loaded.source,
      });
      if (!text) return [];
      return [{ id: "beads", section: "beads", stability: "volatile", text }];
    },
  };
}
