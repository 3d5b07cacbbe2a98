/**
 * A generated project for the task tests: Python and TypeScript modules,
 * each about one topic (its words in names, comments and docstrings), large
 * enough that budgets of a few thousand tokens must choose between them.
 *
 * @module
 */

import { makeProject, prng, type Tree } from "../_helpers.ts";

/** The topics, one module of each in each language; a task naming one finds its modules. */
export const TOPICS = [
  "cookie",
  "redirect",
  "timeout",
  "proxy",
  "encoding",
  "certificate",
  "retry",
  "stream",
  "header",
  "session",
  "upload",
  "cache",
] as const;

const FILLER = [
  "value",
  "result",
  "count",
  "item",
  "state",
  "limit",
  "buffer",
  "entry",
  "record",
  "option",
];

function pythonModule(topic: string, random: () => number): string {
  const lines = [`"""Everything about the ${topic}: parse, check and apply a ${topic}."""`, ""];
  for (let i = 0; i < 12; i++) {
    const word = FILLER[Math.floor(random() * FILLER.length)];
    lines.push(
      `def ${topic}_${word}_${i}(${word}, ${topic}=None):`,
      `    """Apply the ${topic} to the ${word} (step ${i})."""`,
      `    ${word}_${i} = ${word} * ${i + 1}`,
      `    if ${topic} is not None:`,
      `        ${word}_${i} += len(str(${topic}))`,
      `    # keep the ${topic} ${word} within its limit`,
      `    return ${word}_${i}`,
      "",
      "",
    );
  }
  lines.push(
    `class ${topic[0].toUpperCase()}${topic.slice(1)}Handler:`,
    `    """Handles one ${topic}."""`,
    "",
  );
  for (let i = 0; i < 6; i++) {
    lines.push(
      `    def handle_${topic}_${i}(self, request):`,
      `        """Handle the ${topic} of a request (case ${i})."""`,
      `        return ${topic}_${FILLER[i]}_${i}(request)`,
      "",
    );
  }
  return lines.join("\n");
}

function tsModule(topic: string, random: () => number): string {
  const lines = [`/** The ${topic} helpers of the client. */`, ""];
  for (let i = 0; i < 10; i++) {
    const word = FILLER[Math.floor(random() * FILLER.length)];
    lines.push(
      `/** Read the ${topic} ${word} (variant ${i}). */`,
      `export function ${topic}${word[0].toUpperCase()}${
        word.slice(1)
      }${i}(${word}: number): number {`,
      `  // the ${topic} counts the ${word} twice`,
      `  return ${word} * ${i + 2};`,
      "}",
      "",
    );
  }
  return lines.join("\n");
}

/**
 * The project's tree: `src/<topic>.py`, `lib/<topic>.ts` and a README.
 *
 * @example
 * ```ts
 * import { taskTree } from "./_project.ts";
 * Object.keys(taskTree()).length; // 25
 * ```
 */
export function taskTree(seed = 7): Tree {
  const random = prng(seed);
  const tree: Tree = {
    "README.md": `# Client\n\nA client with ${TOPICS.join(", ")} support.\n`,
  };
  for (const topic of TOPICS) {
    tree[`src/${topic}.py`] = pythonModule(topic, random);
    tree[`lib/${topic}.ts`] = tsModule(topic, random);
  }
  return tree;
}

/** Write {@linkcode taskTree} (plus `extra` files) into a new temp folder. */
export async function taskProject(extra: Tree = {}): Promise<string> {
  return await makeProject({ ...taskTree(), ...extra });
}

/**
 * The paths a task build put in full in its task section, from its manifest's `task.files`.
 *
 * @example
 * ```ts
 * import { fullInTask } from "./_project.ts";
 * fullInTask([{ path: "a.py", where: "task", view: "full" }]); // Set { "a.py" }
 * ```
 */
export function fullInTask(
  files: readonly { path: string; where: string; view: string }[],
): Set<string> {
  return new Set(files.filter((f) => f.where === "task" && f.view === "full").map((f) => f.path));
}
