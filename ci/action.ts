/**
 * What the GitHub Action (`action.yml`) runs: `slop check --json` in the
 * working directory, then the job summary (a markdown table of the first
 * divergence, the invalidated tokens and their cost), the step's outputs and
 * `slop report` for the artifact. Exits with `slop check`'s code: 0 when the
 * stable prefix matches `slop.lock` or the drift is within
 * `max-invalidated`, 1 on drift beyond it or without a lock, 2 on bad
 * input or config.
 *
 * A plain Deno script: it reads the action's inputs from `INPUT_CONFIG`,
 * `INPUT_PERSONA`, `INPUT_PRESET`, `INPUT_MAX_INVALIDATED`, `INPUT_FAIL_ON_SECRET`
 * (`true`: a secret fails the check) and `INPUT_REPORT_NAME` (empty: no report), and writes to
 * the files GitHub names in `GITHUB_STEP_SUMMARY` and `GITHUB_OUTPUT` (and
 * prints the summary when they are unset, as on your own machine).
 *
 * ```sh
 * INPUT_MAX_INVALIDATED=10% deno run -A ci/action.ts
 * ```
 *
 * @module
 */

import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { LockDiff } from "../pipeline/lock.ts";
import type { InvalidationCost } from "../pipeline/pin.ts";
import { annotationLines } from "./_annotations.ts";
import { formatCount, formatDollars } from "../pipeline/figures.ts";
import { endsWithSlop } from "../pipeline/helpers.ts";

/** The action's inputs (empty strings count as unset). */
export interface ActionInputs {
  /** `--config`: the config file. */
  config?: string;
  /** `--persona`: check a persona's prefix. */
  persona?: string;
  /** `--preset`: check a preset's prefix. */
  preset?: string;
  /** `--max-invalidated`: `PERCENT%` or `TOKENS` of drift that still passes. */
  maxInvalidated?: string;
  /** `--fail-on-secret`: a secret in the files fails the check. */
  failOnSecret?: boolean;
  /**
   * The project's folder in the repository (the action's `working-directory`), when it is not
   * the root: the commands and the lock the summary names are said from the root.
   */
  folder?: string;
}

/** What `slop check --json` printed, and its exit code. */
export interface CheckOutcome {
  /** `slop check`'s exit code. */
  code: number;
  /** The parsed JSON, when it printed any. */
  json?: {
    lock: string;
    pinned: boolean;
    diff?: LockDiff;
    costs?: InvalidationCost[];
    total: { sha256: string; bytes: number; tokens: number };
    /** The tokenizer of `total`'s and `diff`'s token counts (absent from an older slop's JSON). */
    tokenizer?: string;
    /** What `--fail-on-secret` found (then nothing else is set). */
    secrets?: Array<{ path: string; line: number; rule: string }>;
  };
  /** What it printed on stderr (the human report, warnings, errors). */
  stderr: string;
}

/** The result in one word: the `status` output. */
export type CheckStatus = "match" | "within" | "drift" | "no-lock" | "secret" | "error";

/**
 * The status of a check's outcome.
 */
function checkStatus(outcome: CheckOutcome): CheckStatus {
  const json = outcome.json;
  if (json?.secrets?.length && outcome.code === 1) return "secret";
  if (!json?.total || outcome.code > 1) return "error";
  if (!json.pinned) return "no-lock";
  if (!json.diff) return outcome.code === 0 ? "match" : "error";
  return outcome.code === 0 ? "within" : "drift";
}

/**
 * The `slop check` command line for `inputs` (after `slop`).
 */
function checkArgs(inputs: ActionInputs): string[] {
  const args = ["check", "--json"];
  if (inputs.config) args.push("--config", inputs.config);
  if (inputs.persona) args.push("--persona", inputs.persona);
  if (inputs.preset) args.push("--preset", inputs.preset);
  if (inputs.maxInvalidated) args.push("--max-invalidated", inputs.maxInvalidated);
  if (inputs.failOnSecret) args.push("--fail-on-secret");
  return args;
}

/**
 * The job summary of a check: a heading and a markdown table (plus one of
 * the costs per provider when the prefix drifted).
 *
 * @example
 * ```ts
 * import { summaryMarkdown } from "./action.ts";
 * const text = summaryMarkdown({
 *   code: 0,
 *   json: { lock: "slop.lock", pinned: true, total: { sha256: "", bytes: 496, tokens: 235 } },
 *   stderr: "",
 * }, {});
 * text.includes("| Result | pass: the stable prefix matches the lock |"); // true
 * ```
 */
export function summaryMarkdown(outcome: CheckOutcome, inputs: ActionInputs): string {
  const status = checkStatus(outcome);
  const json = outcome.json;
  const rows: [string, string][] = [];
  const what = [
    inputs.persona ? `persona ${code(inputs.persona)}` : "",
    inputs.preset ? `preset ${code(inputs.preset)}` : "",
  ].filter(Boolean).join(", ");
  if (status === "error") {
    rows.push(["Result", "error: slop check could not compare the prefix"]);
    rows.push(["Error", code(errorMessage(outcome))]);
    return table("slop check", rows);
  }
  if (status === "secret") return table("slop check", secretRows(json!.secrets!));
  const lock = lockPath(json!.lock, inputs);
  rows.push(["Lock", code(lock) + (what ? ` (${what})` : "")]);
  if (status === "no-lock") {
    rows.push(["Result", "fail: no lock to compare with"]);
    rows.push(["Fix", `run ${code(updateCommand(inputs))} and commit ${code(lock)}`]);
    return table("slop check", rows);
  }
  const diff = json!.diff;
  const encoding = encodingOf(json!.tokenizer);
  if (!diff) {
    rows.push(["Result", "pass: the stable prefix matches the lock"]);
    rows.push([
      "Stable prefix",
      `${formatCount(json!.total.bytes)} bytes, ${
        formatCount(json!.total.tokens)
      } ${encoding}tokens`,
    ]);
    return table("slop check", rows);
  }
  rows.push(...driftRows(diff, status, { inputs, encoding }));
  rows.push(["Re-pin", `${code(updateCommand(inputs))}, then commit ${code(lock)}`]);
  let text = table("slop check", rows);
  if (json!.costs?.length) text += costTable(json!.costs);
  return text;
}

/**
 * The error slop check printed: its last `slop:` or `error:` line and the indented lines under it
 * (a secret's files, a config error's details), without the prefix; a crash's stack is not kept.
 */
function errorMessage(outcome: CheckOutcome): string {
  const lines = outcome.stderr.split("\n").filter((line) => line.trim());
  const head = lines.findLastIndex((line) => /^(slop|error): /.test(line));
  if (head < 0) return lines.at(-1)?.trim() ?? `slop check exited with code ${outcome.code}`;
  const details: string[] = [];
  for (const line of lines.slice(head + 1)) {
    if (!/^\s/.test(line) || /^\s+at /.test(line)) break;
    details.push(line.trim());
  }
  return [lines[head].replace(/^(slop|error): /, ""), ...details].join(" ");
}

/** Secrets listed in a summary; the rest are counted. */
const SECRETS_SHOWN = 20;

/** The rows of a summary of a check that found secrets (`fail-on-secret`). */
function secretRows(
  secrets: Array<{ path: string; line: number; rule: string }>,
): [string, string][] {
  const n = secrets.length;
  const rows: [string, string][] = [
    ["Result", `fail: ${n} secret${n === 1 ? "" : "s"} found (${code("fail-on-secret")})`],
  ];
  for (const s of secrets.slice(0, SECRETS_SHOWN)) {
    rows.push(["Secret", `${code(`${s.path}:${s.line}`)} (${cell(s.rule)})`]);
  }
  if (n > SECRETS_SHOWN) rows.push(["Secret", `... and ${n - SECRETS_SHOWN} more (the job's log)`]);
  rows.push([
    "Fix",
    "take the secret out of the file (and revoke it), or leave the file out of slop's files",
  ]);
  return rows;
}

/** The rows of a summary that say how the stable prefix drifted from the lock. */
function driftRows(
  diff: LockDiff,
  status: CheckStatus,
  { inputs, encoding }: { inputs: ActionInputs; encoding: string },
): [string, string][] {
  const share = diff.pinnedTokens ? (diff.invalidatedTokens / diff.pinnedTokens) * 100 : 0;
  const budget = inputs.maxInvalidated
    ? ` ${code(`--max-invalidated ${inputs.maxInvalidated}`)}`
    : "";
  const where = diff.file
    ? `section ${diff.section}, file ${code(diff.file)}`
    : `section ${diff.section}`;
  const c = diff.counts;
  return [
    [
      "Result",
      status === "within"
        ? `pass: the stable prefix drifted within${budget}`
        : `fail: the stable prefix drifted${budget ? ` beyond${budget}` : ""}`,
    ],
    ["First divergent block", `#${diff.index + 1} ${code(diff.id)} (${where})`],
    ["What changed", changeText(diff)],
    ["Byte offset", formatCount(diff.offset)],
    [
      "Invalidated tokens",
      `${formatCount(diff.invalidatedTokens)} of ${
        formatCount(diff.pinnedTokens)
      } ${encoding}prefix tokens (${share.toFixed(1)}%)`,
    ],
    [
      "All differences",
      `${c.changed} changed, ${c.added} added, ${c.removed} removed, ${c.moved} moved`,
    ],
  ];
}

/** The tokenizer's name and a space, to put before "tokens" (nothing when the JSON has none). */
function encodingOf(tokenizer?: string): string {
  return tokenizer ? `${cell(tokenizer)} ` : "";
}

/**
 * The markdown table of what the drift costs on each provider, in each model's own tokens (an
 * estimate, marked `~`, where its tokenizer is not public).
 */
function costTable(costs: InvalidationCost[]): string {
  return "\n| Provider | Model | Invalidated tokens (the model's) | Extra cost of the next call |\n" +
    "| --- | --- | ---: | ---: |\n" +
    costs.map((cost) =>
      `| ${cell(cost.provider.replace(/^slop:/, ""))} | ${cell(cost.model)} | ${
        cost.estimated ? "~" : ""
      }${formatCount(cost.tokens)} | ${formatDollars(cost.dollars)} |\n`
    ).join("");
}

/**
 * The step's outputs: `status`, `first-divergence`, `invalidated-tokens`,
 * `invalidated-share` (percent of the pinned prefix) and `cost` (US dollars
 * on the configured provider, else the first), empty when they do not apply.
 */
function actionOutputs(outcome: CheckOutcome): Record<string, string> {
  const diff = outcome.json?.diff;
  const cost = outcome.json?.costs?.[0];
  return {
    status: checkStatus(outcome),
    "first-divergence": diff?.id ?? "",
    "invalidated-tokens": diff ? String(diff.invalidatedTokens) : "",
    "invalidated-share": diff
      ? (diff.pinnedTokens ? (diff.invalidatedTokens / diff.pinnedTokens) * 100 : 0).toFixed(1)
      : "",
    cost: cost ? cost.dollars.toFixed(6) : "",
  };
}

/**
 * Lines for `GITHUB_OUTPUT`: `name=value`, or a heredoc for a value with a
 * line break (GitHub's multiline syntax, with a delimiter not in the value).
 *
 * @example
 * ```ts
 * import { outputLines } from "./action.ts";
 * outputLines({ status: "match" }); // "status=match\n"
 * ```
 */
export function outputLines(outputs: Record<string, string>): string {
  return Object.entries(outputs).map(([name, value]) => {
    if (!/[\r\n]/.test(value)) return `${name}=${value}\n`;
    let delimiter = "SLOP_EOF";
    while (value.includes(delimiter)) delimiter += "_";
    return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
  }).join("");
}

/** Options of {@linkcode runAction}. */
export interface RunActionOptions {
  /** The environment to read inputs and GitHub's files from. @default {Deno.env.toObject()} */
  env?: Record<string, string>;
  /** The project folder. @default {Deno.cwd()} */
  cwd?: string;
}

/**
 * Run the action: check, write the summary and the outputs, write the report
 * for the artifact; resolves to the exit code.
 *
 * @example
 * ```ts
 * import { runAction } from "./action.ts";
 * // Deno.exit(await runAction());
 * ```
 */
export async function runAction(options: RunActionOptions = {}): Promise<number> {
  const env = options.env ?? Deno.env.toObject();
  const cwd = options.cwd ?? Deno.cwd();
  const inputs: ActionInputs = {
    config: env.INPUT_CONFIG?.trim() || undefined,
    persona: env.INPUT_PERSONA?.trim() || undefined,
    preset: env.INPUT_PRESET?.trim() || undefined,
    maxInvalidated: env.INPUT_MAX_INVALIDATED?.trim() || undefined,
    failOnSecret: env.INPUT_FAIL_ON_SECRET?.trim().toLowerCase() === "true",
    folder: folderIn(env.GITHUB_WORKSPACE, cwd),
  };
  const failOnSecret = env.INPUT_FAIL_ON_SECRET?.trim().toLowerCase() ?? "";
  if (!["", "true", "false"].includes(failOnSecret)) {
    console.error(
      `slop: Invalid input "fail-on-secret": expected true or false, got "${env.INPUT_FAIL_ON_SECRET}"`,
    );
    return 2;
  }
  const check = await slop(checkArgs(inputs), cwd);
  // The human report and warnings go to the job's log as slop check prints them.
  await Deno.stderr.write(new TextEncoder().encode(check.stderr));
  let json: CheckOutcome["json"];
  try {
    json = check.stdout.trim() ? JSON.parse(check.stdout) : undefined;
  } catch {
    json = undefined;
  }
  const outcome: CheckOutcome = { code: check.code, json, stderr: check.stderr };
  const summary = summaryMarkdown(outcome, inputs);
  const outputs = actionOutputs(outcome);
  // The action passes its report-name: empty means no artifact, so no report to write.
  const wantReport = env.INPUT_REPORT_NAME === undefined || env.INPUT_REPORT_NAME.trim() !== "";
  const status = checkStatus(outcome);
  if (wantReport && status !== "error" && status !== "secret") {
    // The report of the same config, persona and preset, for the artifact.
    const dir = join(env.RUNNER_TEMP || await Deno.makeTempDir(), "slop-report");
    const out = join(dir, "report.html");
    const args = ["report", "--build", "--quiet", "--out", out];
    if (inputs.config) args.push("--config", inputs.config);
    if (inputs.persona) args.push("--persona", inputs.persona);
    if (inputs.preset) args.push("--preset", inputs.preset);
    const report = await slop(args, cwd);
    if (report.code === 0) outputs.report = out;
    else await Deno.stderr.write(new TextEncoder().encode(report.stderr));
  }
  // On GitHub, the divergence (or each secret) is shown on the pull request's diff as well.
  if (env.GITHUB_ACTIONS === "true") {
    const error = status === "error" ? errorMessage(outcome) : undefined;
    printAnnotations({ status, json, inputs, error }, { env, cwd });
  }
  if (env.GITHUB_STEP_SUMMARY) {
    await Deno.writeTextFile(env.GITHUB_STEP_SUMMARY, summary, { append: true });
  } else console.log(summary);
  if (env.GITHUB_OUTPUT) {
    await Deno.writeTextFile(env.GITHUB_OUTPUT, outputLines(outputs), { append: true });
  }
  return check.code;
}

/** Print the check's annotations, workflow commands GitHub reads from the step's output. */
function printAnnotations(
  { status, json, inputs, error }: {
    status: CheckStatus;
    json: CheckOutcome["json"];
    inputs: ActionInputs;
    error?: string;
  },
  { env, cwd }: { env: Record<string, string>; cwd: string },
): void {
  const lock = json?.lock && lockPath(json.lock, inputs);
  const check = {
    status,
    lock,
    diff: json?.diff,
    tokenizer: json?.tokenizer,
    secrets: json?.secrets,
    error,
  };
  const place = { cwd, workspace: env.GITHUB_WORKSPACE || undefined };
  for (const line of annotationLines({ ...check, update: updateCommand(inputs) }, place)) {
    console.log(line);
  }
}

/** `cwd` relative to the checkout's root, when it is a folder below it (else undefined). */
function folderIn(workspace: string | undefined, cwd: string): string | undefined {
  if (!workspace) return undefined;
  const rel = relative(resolve(workspace), resolve(cwd)).split(sep).join("/");
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : undefined;
}

/** Run slop (this checkout's `cli.ts`) with `args` in `cwd`. */
async function slop(
  args: string[],
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const cli = fileURLToPath(new URL("../cli.ts", import.meta.url));
  // A child ends with slop (stopped by a signal while it runs, it went on without it).
  const out = await endsWithSlop(Deno.execPath(), {
    args: ["run", "-A", "--quiet", cli, ...args],
    cwd,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/** `slop check --update` for these inputs: a persona's or preset's lock is its own. */
function updateCommand(inputs: ActionInputs): string {
  const parts = inputs.folder ? [`cd ${shellWord(inputs.folder)} && slop check`] : ["slop check"];
  if (inputs.config) parts.push(`--config ${inputs.config}`);
  if (inputs.persona) parts.push(`--persona ${inputs.persona}`);
  if (inputs.preset) parts.push(`--preset ${inputs.preset}`);
  return [...parts, "--update"].join(" ");
}

/** The lock as the repository's root names it. */
function lockPath(lock: string, inputs: ActionInputs): string {
  return inputs.folder ? `${inputs.folder}/${lock}` : lock;
}

/** A folder as one word of a shell line: quoted when it holds more than safe characters. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'"'"'`)}'`;
}

/** What happened to the first divergent block, in words. */
function changeText(diff: LockDiff): string {
  const { before, after } = diff;
  const bytes = (n?: number) => n === undefined ? "-" : formatCount(n);
  if (diff.kind === "changed") {
    const moved = before && after && before.index !== after.index;
    return `content changed (${bytes(before?.bytes)} -> ${bytes(after?.bytes)} bytes` +
      (moved ? `, now block #${after.index + 1})` : ")");
  }
  if (diff.kind === "added") return `added (not in the lock, ${bytes(after?.bytes)} bytes)`;
  if (diff.kind === "removed") return `removed (was block #${(before?.index ?? 0) + 1})`;
  return `moved from block #${(before?.index ?? 0) + 1} to #${(after?.index ?? 0) + 1}`;
}

/** A two-column markdown table under a heading. */
function table(title: string, rows: [string, string][]): string {
  return `### ${title}\n\n| | |\n| --- | --- |\n` +
    rows.map(([k, v]) => `| ${k} | ${v} |\n`).join("");
}

/**
 * `text` as a code span that survives a table cell: a fence longer than any
 * run of backticks in it, pipes escaped, line breaks shown as `\n`.
 */
function code(text: string): string {
  const flat = text.replace(/\r?\n|\r/g, "\\n").replaceAll("|", "\\|");
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") ? " " : "";
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** Plain text for a table cell: pipes escaped, line breaks as spaces. */
function cell(text: string): string {
  return text.replace(/\r?\n|\r/g, " ").replaceAll("|", "\\|");
}

if (import.meta.main) {
  Deno.exit(await runAction());
}
