/**
 * A seeded generator of bad input for every surface a user or an agent types into (config
 * objects, config files, plugins, `slop.lock`, the slices file, CLI flags, MCP arguments), made
 * by mutating valid input, and the oracle every error it provokes must pass: one clear message
 * that names what is at fault, with no stack trace or runtime error text.
 *
 * @module
 */

import { prng } from "../_helpers.ts";

/** One bad input: where it was planted, what it is, and what the error must name. */
export interface BadCase<T> {
  /** The input. */
  input: T;
  /** A short description for assertion messages. */
  label: string;
  /** Texts the error message must contain (key path, file, flag, plugin). */
  names: string[];
}

/** A config that passes validation and uses every key, so that each key path can be spoiled. */
export function validConfig(): Record<string, unknown> {
  return {
    root: ".",
    files: ["a.py", {
      path: "b.md",
      view: "summary",
      forceFull: false,
      autoAggregate: true,
      slices: [{ startLine: 1, endLine: 2, tag: "t", comment: "c", anchorLines: ["x"] }],
      mask: { f: "sig" },
      maxBytes: 1000,
      dedup: true,
      options: { k: 1 },
    }],
    exclude: ["*.log"],
    include: ["c.txt"],
    defaultView: "full",
    strategy: "auto",
    summaryOnly: false,
    screenshots: ["shot.png"],
    history: [{ role: "user", content: "hi" }, "Assistant: hello"],
    compaction: { enabled: true, threshold: 80, keep: 24, prompt: "slop/prompts/compaction.md" },
    output: {
      dir: ".slop/out",
      namespace: "context",
      format: "markdown",
      keep: 20,
      keepBytes: 1e6,
    },
    presets: { small: { files: ["a.py"], screenshots: [], description: "d", task: "t" } },
    personas: {
      dev: {
        strategy: "auto",
        defaultView: "full",
        tier: 1,
        focus: ["a.py"],
        budget: 900,
        task: "t",
      },
    },
    plugins: [],
    ordering: { pinned: ["a.py"] },
    lock: "slop.lock",
    cache: { enabled: true, dir: ".slop/cache", maxSize: "1GB" },
    provider: { name: "anthropic", model: "claude-haiku-4-5", apiKeyEnv: "KEY", ttl: "5m" },
    budget: { tokens: 10000, tokenizer: "o200k", taskShare: 0.5, mapTokens: 100, mapFull: 1 },
    rank: {
      weights: {
        lexical: 1,
        path: 1,
        graph: 0.25,
        coChange: 0.2,
        history: 0.1,
        pairs: 0.1,
        pastCommits: 0.05,
      },
    },
    knowledge: { dir: "slop/knowledge", digest: true, conversations: [] },
    beads: false,
    slicesFile: "slop/slices.toml",
    maxFileSize: 1000000,
    allowOutsideRoot: false,
    secrets: { failOnSecret: false, rules: { mine: "tok_[a-z]{8}" } },
    tree: false,
    server: { prepare: true },
    task: "fix it",
  };
}

/** Every key path of `value` with the value there (`files[1].view`), containers included. */
export function keyPaths(value: unknown, path = ""): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = path ? [[path, value]] : [];
  if (Array.isArray(value)) {
    value.forEach((item, i) => out.push(...keyPaths(item, `${path}[${i}]`)));
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      out.push(...keyPaths(item, path ? `${path}.${key}` : key));
    }
  }
  return out;
}

/** A deep copy of `config` with the value at `path` replaced. */
export function withValue(config: unknown, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(config) as Record<string, unknown>;
  const steps = path.match(/[^.[\]]+/g)!.map((s) => /^\d+$/.test(s) ? Number(s) : s);
  let at = copy as Record<string | number, unknown>;
  for (const step of steps.slice(0, -1)) at = at[step] as Record<string | number, unknown>;
  at[steps.at(-1)!] = value;
  return copy;
}

/** Values of the wrong type for a key whose valid value is `valid`. */
export function wrongTypes(valid: unknown): Array<[string, unknown]> {
  const all: Array<[string, unknown]> = [
    ["a number", 7],
    ["NaN", NaN],
    ["Infinity", Infinity],
    ["a string", "7"],
    ["a boolean", true],
    ["null", null],
    ["an object", {}],
    ["an array", ["x"]],
    // Values JSON cannot show: stringify throws on a bigint and gives `undefined` for the rest.
    ["a bigint", 7n],
    ["a symbol", Symbol("s")],
    ["a function", () => 7],
  ];
  const kind = (v: unknown) => Array.isArray(v) ? "array" : v === null ? "null" : typeof v;
  return all.filter(([, v]) => kind(v) !== kind(valid) && !(kind(valid) === "number" && v === 7));
}

/** Values a key of this name refuses although their type is right. */
export function wrongValues(path: string): Array<[string, unknown]> {
  const last = path.replace(/\[\d+\]$/, "").split(".").at(-1)!;
  const paths = new Set([
    "root",
    "lock",
    "slicesFile",
    "dir",
    "prompt",
    "path",
    "exclude",
    "include",
    "screenshots",
    "pinned",
    "focus",
    "conversations",
  ]);
  const out: Array<[string, unknown]> = [];
  if (paths.has(last)) out.push(["an empty path", ""], ["a NUL byte", "a\0b"]);
  if (last === "namespace") {
    out.push(["an empty name", ""], ["a name with a slash", "../../evil"], ["a dot name", ".."]);
  }
  const counts = ["threshold", "keep", "keepBytes", "maxBytes", "tokens", "budget", "maxFileSize"];
  if (counts.includes(last)) out.push(["a negative number", -3], ["a fraction", 2.5]);
  if (["taskShare", "mapFull"].includes(last)) out.push(["a share over 1", 1.5]);
  if (["lexical", "graph", "coChange", "history", "pairs", "pastCommits"].includes(last)) {
    out.push(["a negative weight", -1]);
  }
  if (["view", "defaultView"].includes(last)) out.push(["an unknown view", "skelton"]);
  if (last === "tier") out.push(["tier 4", 4]);
  if (last === "name" && path.startsWith("provider")) out.push(["an unknown provider", "antropic"]);
  if (last === "task") out.push(["a blank task", "  \n"]);
  if (last === "maxSize") out.push(["a bad size", "lots"]);
  if (last === "options") {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    out.push(["a cycle", { a: cyclic }], ["20000 levels", deep(20000)], ["a bigint", { n: 10n }]);
  }
  return out;
}

/** A near miss of `key`: two letters swapped, or one dropped when it is short. */
export function nearMiss(key: string, random: () => number): string {
  if (key.length < 4) return key + key.at(-1);
  const i = 1 + Math.floor(random() * (key.length - 2));
  return key.slice(0, i - 1) + key[i] + key[i - 1] + key.slice(i + 1);
}

/** The key paths of a valid config that a case may spoil, with their valid values. */
function spoilable(): Array<[string, unknown]> {
  // `plugins` has a surface of its own; `history` items have two valid shapes.
  // A view mode's `options` are its own: any data.
  return keyPaths(validConfig()).filter(([path]) =>
    !path.startsWith("plugins") && !/\.options\./.test(path)
  );
}

/**
 * Bad configs: every key path with every wrong type and wrong value, plus `count` near-miss
 * keys and prototype keys chosen by `seed`.
 */
export function badConfigs(seed: number, count: number): BadCase<Record<string, unknown>>[] {
  const random = prng(seed);
  const cases: BadCase<Record<string, unknown>>[] = [];
  for (const [path, valid] of spoilable()) {
    for (const [what, value] of [...wrongTypes(valid), ...wrongValues(path)]) {
      // A string where a list of strings or a history is wanted is another valid shape.
      if (/^(history(\[\d\])?|files\[\d\])$/.test(path) && typeof value === "string") continue;
      // A size is bytes or a text like "512MB".
      if (path === "cache.maxSize" && value === 7) continue;
      cases.push({
        input: withValue(validConfig(), path, value),
        label: `${path} = ${what}`,
        names: [path],
      });
    }
  }
  const objects = spoilable().filter(([, v]) => v && typeof v === "object" && !Array.isArray(v));
  objects.push(["", validConfig()]);
  for (let i = 0; i < count; i++) {
    const [path, value] = objects[Math.floor(random() * objects.length)];
    const keys = Object.keys(value as object);
    if (!keys.length || /^(presets|personas|mask|options|rules)$/.test(path.split(".").at(-1)!)) {
      continue;
    }
    const key = keys[Math.floor(random() * keys.length)];
    const typo = nearMiss(key, random);
    if (keys.includes(typo)) continue;
    const bad = { ...(value as object), [typo]: (value as Record<string, unknown>)[key] };
    const full = path ? `${path}.${typo}` : typo;
    cases.push({
      input: path ? withValue(validConfig(), path, bad) : bad,
      label: `near miss ${full}`,
      names: [full],
    });
  }
  return cases;
}

/** Text an error shown to a user must never hold: stack frames and raw runtime error names. */
const LEAKS = [
  /Uncaught/,
  /\bat (file|ext|node):/,
  /^\s+at /m,
  /\b(TypeError|RangeError|ReferenceError|SyntaxError|EvalError):/,
  /\[ERR_[A-Z_]+\]/,
  /\(os error \d+\)/,
  /\[object Object\]/,
  /Maximum call stack/,
  /Cannot read properties of/,
  /is not a function/,
  /Do not know how to serialize/,
  // A value shown raw where it was absent or could not be shown (`JSON.stringify` of a function).
  /\bgot undefined\b/,
  /"undefined"/,
  // A control character shown raw (a NUL or an escape sequence from a path or a name).
  // deno-lint-ignore no-control-regex
  /[\u0000-\u0008\u000b-\u001f\u007f]/,
];

/**
 * What is wrong with an error message by the oracle: one line (unless `lines` allows more),
 * sentence case, no final period, no stack or runtime error text, at most 1000 characters,
 * and each of `names` in it. Empty when the message passes.
 */
export function messageFaults(
  message: string,
  names: string[],
  { lines = 1 }: { lines?: number } = {},
): string[] {
  const faults: string[] = [];
  const text = message.replace(/^(slop|error|warning): /, "");
  if (!text.trim()) return ["empty message"];
  if (text.trimEnd().split("\n").length > lines) faults.push("more than one line");
  if (!/^[A-Z["]/.test(text)) faults.push("not in sentence case");
  if (/\.\s*$/.test(text) && !/\.\.\.\s*$|…\s*$/.test(text)) faults.push("ends with a period");
  for (const leak of LEAKS) if (leak.test(text)) faults.push(`leaks ${leak}`);
  if (text.length > 1000) faults.push(`${text.length} characters long`);
  for (const name of names) if (!text.includes(name)) faults.push(`does not name ${name}`);
  return faults;
}

/** A file's path and a hash of its bytes, for every file under `root` (sorted). */
export async function treeState(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, rel: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${dir}/${entry.name}`;
      const shown = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory) await walk(path, shown);
      else {
        const bytes = await Deno.readFile(path).catch(() => new Uint8Array());
        const hash = await crypto.subtle.digest("SHA-256", bytes);
        out.push(`${shown} ${new Uint8Array(hash).slice(0, 8).join(",")}`);
      }
    }
  };
  await walk(root, "");
  return out.sort();
}

/** A valid plugin of each kind, for {@linkcode badPlugins} to spoil. */
export function validPlugins(): Record<string, Record<string, unknown>> {
  return {
    "view-mode": {
      kind: "view-mode",
      name: "shout",
      version: "1",
      extensions: [".py"],
      timeoutMs: 1000,
      options: { marks: 2 },
      render: (file: { text: string }) => file.text.toUpperCase(),
    },
    "section": { kind: "section", name: "notes", compose: () => [] },
    "ordering": { kind: "ordering", name: "keep", order: (blocks: unknown[]) => blocks },
    "provider": { kind: "provider", name: "local", countTokens: (text: string) => text.length },
  };
}

/** A value `depth` objects deep. */
export function deep(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** Bad plugins: not objects, spoiled names, kinds, hooks and data, near-miss keys, traps. */
export function badPlugins(seed: number): BadCase<unknown[]>[] {
  const random = prng(seed);
  const cases: BadCase<unknown[]>[] = [];
  const add = (label: string, plugin: unknown, names: string[]) =>
    cases.push({ input: [plugin], label, names: ["plugins[0]", ...names] });
  for (const [what, value] of wrongTypes({})) add(`a plugin that is ${what}`, value, []);
  add("a function as a plugin", () => ({}), []);
  for (const [kind, valid] of Object.entries(validPlugins())) {
    const spoil = (key: string, value: unknown) => ({ ...valid, [key]: value });
    for (const [what, value] of [["missing", undefined], ["empty", ""], ["a number", 5]]) {
      add(`${kind}: name ${what}`, spoil("name", value), []);
    }
    add(`${kind}: kind near miss`, spoil("kind", kind.replace("-", "_") + "s"), [
      valid.name as string,
    ]);
    for (const key of Object.keys(valid).filter((k) => k !== "kind" && k !== "name")) {
      const names = [valid.name as string, key];
      const typo = nearMiss(key, random);
      const { [key]: kept, ...rest } = valid;
      add(`${kind}: ${key} misspelt "${typo}"`, { ...rest, [typo]: kept }, [
        valid.name as string,
        typo,
      ]);
      // Options are any JSON data; the cases below spoil them.
      for (const [what, value] of key === "options" ? [] : wrongTypes(valid[key])) {
        if (key === "timeoutMs" && what === "Infinity") continue;
        add(`${kind}: ${key} is ${what}`, spoil(key, value), names);
      }
    }
  }
  const view = validPlugins()["view-mode"];
  for (const kind of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
    add(`a kind named like an Object.prototype member: ${kind}`, { ...view, kind }, [
      "shout",
      `"${kind}"`,
    ]);
  }
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  add("options with a function", { ...view, options: { f: () => 1 } }, ["shout", "options"]);
  add("options with a cycle", { ...view, options: cyclic }, ["shout", "options"]);
  add("options 20000 levels deep", { ...view, options: deep(20000) }, ["shout", "options"]);
  add("a negative timeoutMs", { ...view, timeoutMs: -1 }, ["shout", "timeoutMs"]);
  const trap = Object.defineProperty({ ...view }, "name", {
    enumerable: true,
    get() {
      throw Object.create(null);
    },
  });
  add("a name getter that throws", trap, []);
  add(
    "a proxy that throws",
    new Proxy({}, {
      ownKeys: () => {
        throw "no keys";
      },
      get: () => undefined,
    }),
    [],
  );
  cases.push({
    input: [view, { ...view }],
    label: "a duplicate name",
    names: ["plugins[1]", '"shout"'],
  });
  return cases;
}

/** What a hook may do wrong: throw something that is no Error, or return the wrong shape. */
export function badHookResults(): Array<[string, () => unknown]> {
  const bare = () => Object.create(null);
  const getter = () => ({
    get message() {
      throw new Error("inner");
    },
  });
  const badMessage = () => {
    const error = new Error("x");
    Object.defineProperty(error, "message", {
      get() {
        throw 1;
      },
    });
    return error;
  };
  return [
    ["throws a string", () => {
      throw "boom";
    }],
    ["throws undefined", () => {
      throw undefined;
    }],
    ["throws an object without a prototype", () => {
      throw bare();
    }],
    ["throws an object whose message getter throws", () => {
      throw getter();
    }],
    ["throws an Error whose message getter throws", () => {
      throw badMessage();
    }],
    ["rejects with an object without a prototype", () => Promise.reject(bare())],
    ["returns a number", () => 5],
    ["returns null", () => null],
    ["returns an object without a prototype", bare],
    ["returns items of the wrong shape", () => [5, { id: 7 }]],
  ];
}

/** Ways to spoil one tab-separated cell of a lock line, by column. */
const LOCK_CELLS: Array<Array<[string, string]>> = [
  [],
  [["a short sha256", "abc"], ["an upper-case sha256", "A".repeat(64)], ["an empty sha256", ""]],
  [["bytes as text", "ten"], ["negative bytes", "-5"], ["huge bytes", "1e999"], [
    "bytes 2^64",
    "18446744073709551616",
  ]],
  [["tokens as text", "NaN"], ["fractional tokens", "1.5"], ["negative tokens", "-1"]],
  [["content that is no hash", "zz-top"]],
  [["changes as text", "many"], ["negative changes", "-1"], ["changes Infinity", "Infinity"]],
  [["last as text", "yesterday"], ["fractional last", "2.5"]],
];

/**
 * Corrupted or hand-edited locks made from a valid one: truncated before its total line, another
 * version, a spoiled cell of each column, a duplicated line, JSON, binary bytes; each with the
 * line the error must name (`line N`), if any.
 */
export function badLocks(valid: string, seed: number): BadCase<string>[] {
  const random = prng(seed);
  const lines = valid.split("\n");
  const totalAt = lines.findIndex((l) => l.startsWith("total\t"));
  const cases: BadCase<string>[] = [];
  for (let i = 0; i < 6; i++) {
    const cut = Math.floor(random() * valid.indexOf("\ntotal\t"));
    cases.push({ input: valid.slice(0, cut), label: `truncated at ${cut}`, names: [] });
  }
  for (const version of ["v2", "v0", "v1.5"]) {
    cases.push({
      input: valid.replace("slop.lock v1", `slop.lock ${version}`),
      label: `version ${version}`,
      names: ["line 1", `"${version}"`],
    });
  }
  for (const row of [2, totalAt]) {
    LOCK_CELLS.forEach((spoils, column) => {
      for (const [what, value] of spoils) {
        if (row === totalAt && column >= 4) continue;
        const cells = lines[row].split("\t");
        cells[column] = value;
        const input = [...lines.slice(0, row), cells.join("\t"), ...lines.slice(row + 1)].join(
          "\n",
        );
        cases.push({
          input,
          label: `${what} on line ${row + 1}`,
          names: [`line ${row + 1}`, `"${value}"`],
        });
      }
    });
  }
  // Hand edits that keep every line valid but the total no longer its blocks' sum: the error
  // names the total line and the total as written.
  const total = lines[totalAt].split("\t");
  const edit = (row: number, column: number, by: number) =>
    lines.map((l, i) => {
      if (i !== row) return l;
      const cells = l.split("\t");
      cells[column] = String(Number(cells[column]) + by);
      return cells.join("\t");
    });
  const totalNames = (column: number, by = 0) => [
    `line ${totalAt + 1}`,
    `"${Number(total[column]) + by}"`,
  ];
  cases.push({
    input: edit(2, 3, 7).join("\n"),
    label: "a block's tokens changed, not the total",
    names: totalNames(3),
  });
  cases.push({
    input: edit(totalAt, 3, -1).join("\n"),
    label: "the total's tokens changed",
    names: totalNames(3, -1),
  });
  cases.push({
    input: edit(totalAt, 2, 5).join("\n"),
    label: "the total's bytes changed",
    names: totalNames(2, 5),
  });
  cases.push({
    input: [...lines.slice(0, 2), ...lines.slice(3)].join("\n"),
    label: "a block's line removed, not the total",
    names: [`line ${totalAt}`, `"${total[2]}"`],
  });
  const doubled = [...lines.slice(0, 3), lines[2], ...lines.slice(3)].join("\n");
  cases.push({ input: doubled, label: "a duplicated line", names: ["line 4"] });
  cases.push({ input: valid.replace(/\t/g, " "), label: "spaces for tabs", names: ["line 3"] });
  cases.push({ input: '{ "version": 1, "blocks": [] }\n', label: "JSON", names: ["line 1"] });
  cases.push({ input: "\u0000\u00ff\u0001garbage", label: "binary bytes", names: ["line 1"] });
  cases.push({ input: "", label: "an empty file", names: [] });
  cases.push({
    input: valid + valid,
    label: "the lock twice",
    names: [`line ${lines.length + 2}`],
  });
  return cases;
}

/** A valid slices file: two slices with every key. */
export const VALID_SLICES = `[[slices]]
path = "a.py"
start_line = 1
end_line = 2
tag = "f"
comment = "the function"
content_hash = "abc123"
anchor_lines = ["def f():", "    return 1"]

[[slices]]
path = "b.md"
start_line = 1
end_line = 1
`;

/** Bad slices files made from {@linkcode VALID_SLICES}: spoiled values, keys, anchors, paths, syntax. */
export function badSlices(seed: number): BadCase<string>[] {
  const random = prng(seed);
  const cases: BadCase<string>[] = [];
  const swap = (from: string, to: string, label: string, names: string[]) =>
    cases.push({ input: VALID_SLICES.replace(from, to), label, names });
  const lines: Array<[string, string[]]> = [
    ['path = "a.py"', [
      "path = 5",
      'path = ""',
      'path = "../../etc/passwd"',
      'path = "/etc/passwd"',
      'path = "C:\\\\x.py"',
      'path = ["a.py"]',
    ]],
    ["start_line = 1", [
      "start_line = 0",
      "start_line = -4",
      "start_line = 1.5",
      'start_line = "1"',
      "start_line = inf",
      "start_line = nan",
    ]],
    ["end_line = 2", ["end_line = 0", 'end_line = "2"', "end_line = 2.5"]],
    ['tag = "f"', ["tag = 5", "tag = []"]],
    ['content_hash = "abc123"', ["content_hash = 0x1f", "content_hash = {}"]],
    ['anchor_lines = ["def f():", "    return 1"]', [
      'anchor_lines = "def f():"',
      "anchor_lines = [1, 2]",
      'anchor_lines = [["def f():"]]',
      "anchor_lines = {}",
    ]],
  ];
  for (const [line, spoils] of lines) {
    const key = line.split(" ")[0];
    for (const spoiled of spoils) swap(line, spoiled, spoiled, [`slices[0].${key}`]);
    const typo = nearMiss(key, random);
    swap(line, line.replace(key, typo), `near miss ${typo}`, [`slices[0].${typo}`]);
  }
  swap("end_line = 2", "end_line = 1\nstart_line = 2", "start_line twice", []);
  swap("start_line = 1\nend_line = 2", "start_line = 3\nend_line = 2", "end before start", [
    "slices[0].end_line",
  ]);
  swap('path = "a.py"\n', "", "no path", ["slices[0].path"]);
  swap("[[slices]]", "[slices]", "a table, not an array of tables", ["slices"]);
  swap("[[slices]]", "[[slice]]", "a near-miss table name", ['"slice"']);
  cases.push({ input: "slices = 5\n", label: "slices = 5", names: ['"slices"'] });
  cases.push({ input: VALID_SLICES.slice(0, 40), label: "truncated", names: [] });
  cases.push({ input: "\u0000\u00ff", label: "binary", names: [] });
  return cases;
}
