/**
 * The `task` section: what a build with a task (`slop build --task TEXT`)
 * adds after the task-independent repository map. The task stage
 * (`pipeline/task.ts`) ranks the files for the task and chooses their views;
 * this section renders its choice as volatile blocks, so the stable prefix
 * (every byte before the first volatile block) is the map, whatever the task:
 *
 * - `## Task Files`, then one block per file shown in its task view
 *   (`### path` + fenced content, as in the map), or a line saying no file
 *   matched the task;
 * - a list of the other ranked files the document names: those the map
 *   already shows in full or in a view as rich, then those only listed;
 * - `## Task` and the task text, last: the most volatile part.
 *
 * Without a task it composes nothing.
 *
 * @module
 */

import type { Block, SectionPlugin, TaskEntry } from "../../pipeline/types.ts";
import { listItemPath, nestedMarkdown, renderFileBlock } from "./_render.ts";

/** Options of {@linkcode taskSection}. */
export interface TaskOptions {
  /** Heading of the task's files. @default {"## Task Files"} */
  filesHeading?: string;
  /** Heading of the task text, the document's last block. @default {"## Task"} */
  taskHeading?: string;
}

/**
 * The line naming a ranked file the task section does not show itself.
 *
 * @example
 * ```ts
 * import { listedLine } from "./task.ts";
 * listedLine({ path: "a.py", score: 2, where: "map", view: "full" }); // "- a.py (full, in the map above)\n"
 * listedLine({ path: "b.py", score: 1, where: "listed", view: "listed" }); // "- b.py\n"
 * ```
 */
export function listedLine(entry: TaskEntry): string {
  const path = listItemPath(entry.path);
  return entry.where === "map" ? `- ${path} (${entry.view}, in the map above)\n` : `- ${path}\n`;
}

/**
 * The heading of the list of ranked files the section does not show.
 *
 * @example
 * ```ts
 * import { LIST_HEADING } from "./task.ts";
 * LIST_HEADING; // "Also relevant, most relevant first:\n\n"
 * ```
 */
export const LIST_HEADING = "Also relevant, most relevant first:\n\n";

/**
 * The line under the task's files heading when the task ranked no file: none of its words is in
 * a file's path or text, and no file it names is there.
 *
 * @example
 * ```ts
 * import { NO_FILES } from "./task.ts";
 * NO_FILES.startsWith("No file"); // true
 * ```
 */
export const NO_FILES =
  "No file of the project matched the task; the map above is all there is.\n\n";

/**
 * The `task` section plugin.
 *
 * @example
 * ```ts
 * import { taskSection } from "./task.ts";
 * taskSection().name; // "slop:task"
 * ```
 */
export function taskSection(options: TaskOptions = {}): SectionPlugin {
  const filesHeading = options.filesHeading ?? "## Task Files";
  const taskHeading = options.taskHeading ?? "## Task";
  return {
    kind: "section",
    name: "slop:task",
    compose(state, ctx) {
      const task = state.task;
      if (!task) return [];
      // A task that ranked no file says so under its heading (an empty heading reads as lost text).
      const none = task.entries.length === 0 ? NO_FILES : "";
      const blocks: Block[] = [{
        id: "task",
        section: "task",
        stability: "volatile",
        heading: true,
        text: `${filesHeading}\n\n${none}`,
      }];
      // The task's own views: no `source`, so the files section's rules and the budget never
      // take them for the map's blocks of the same files.
      for (const entry of task.entries) {
        if (entry.where !== "task" || !entry.file) continue;
        blocks.push({
          id: `task:${entry.path}`,
          section: "task",
          stability: "volatile",
          text: renderFileBlock(entry.file, ctx),
        });
      }
      const others = task.entries.filter((e) => e.where !== "task");
      if (others.length) {
        blocks.push({
          id: "task:listed",
          section: "task",
          stability: "volatile",
          text: `${LIST_HEADING}${others.map(listedLine).join("")}\n`,
        });
      }
      blocks.push({
        id: "task:text",
        section: "task",
        stability: "volatile",
        text: `${taskHeading}\n\n${nestedMarkdown(task.text.trim())}\n\n`,
      });
      return blocks;
    },
  };
}
