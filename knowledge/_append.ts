/**
 * Appending a parsed harvest to the knowledge files: statements to their
 * category files, tasks to `## Open` / `## Done`, playbooks, and file
 * notes to `files/{file_id}.md` (or to `facts.md` as `{path}: {note}` when
 * the path is not an existing file). Every line passes the secret scrubber.
 *
 * @module
 */

import { isAbsolute, resolve } from "node:path";
import type { HarvestItems } from "./prompt.ts";
import type { SecretScrubber } from "./_secrets.ts";
import {
  appendFileNotes,
  appendLines,
  fileId,
  ITEM_CATEGORIES,
  type ItemCategory,
  noteLine,
  playbookLine,
  type Provenance,
  statementLine,
} from "./store.ts";

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() ? value.trim() : undefined;
}

/**
 * Append the items of one harvest; resolves to the number of items
 * appended per category. Items missing their required fields are skipped.
 *
 * @example
 * ```ts
 * import { appendHarvest } from "./_append.ts";
 * // await appendHarvest(items, { dir, root, provenance, scrub });
 * ```
 */
export async function appendHarvest(
  items: HarvestItems,
  options: { dir: string; root: string; provenance: Provenance; scrub: SecretScrubber },
): Promise<Record<ItemCategory, number>> {
  const { dir, root, provenance: p } = options;
  const clean = (line: string) => options.scrub(line).text;
  const counts = Object.fromEntries(ITEM_CATEGORIES.map((c) => [c, 0])) as Record<
    ItemCategory,
    number
  >;
  const statements = (category: ItemCategory, mark = ".") =>
    items[category].flatMap((row) => {
      const statement = text(row.statement);
      if (!statement) return [];
      counts[category]++;
      return [clean(statementLine({ statement, detail: text(row.detail) }, p, { mark }))];
    });
  await appendLines(dir, { category: "facts", lines: statements("facts") });
  await appendLines(dir, { category: "decisions", lines: statements("decisions") });
  await appendLines(dir, { category: "tasks", section: "Open", lines: statements("tasks_open") });
  await appendLines(dir, { category: "tasks", section: "Done", lines: statements("tasks_done") });
  await appendLines(dir, { category: "questions", lines: statements("questions", "?") });
  await appendLines(dir, {
    category: "playbooks",
    lines: items.playbooks.flatMap((row) => {
      const name = text(row.name), steps = text(row.steps);
      if (!name || !steps) return [];
      counts.playbooks++;
      return [clean(playbookLine({ name, steps }, p))];
    }),
  });
  const byFile = new Map<string, { path: string; lines: string[] }>();
  const fallback: string[] = [];
  for (const row of items.files) {
    const path = text(row.path), note = text(row.note);
    if (!path || !note) continue;
    counts.files++;
    const abs = isAbsolute(path) ? path : resolve(root, path);
    const id = await fileId(abs);
    if (id) {
      const group = byFile.get(id) ?? { path: abs, lines: [] };
      group.lines.push(clean(noteLine(note, p)));
      byFile.set(id, group);
    } else {
      fallback.push(clean(noteLine(note, p, { path })));
    }
  }
  for (const [id, group] of byFile) await appendFileNotes(dir, { id, ...group });
  await appendLines(dir, { category: "facts", lines: fallback });
  return counts;
}
