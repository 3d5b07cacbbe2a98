/**
 * GitHub annotations of a check: workflow command lines (`::error file=...::`)
 * that GitHub shows on the pull request's diff, at the file whose change broke
 * the stable prefix and at each line that holds a secret. The job summary is
 * on the run's page, which a reviewer opens only when a check fails; an
 * annotation is beside the change itself.
 *
 * @module
 */

import { join, relative, sep } from "node:path";
import type { LockDiff } from "../pipeline/lock.ts";
import { formatCount } from "../pipeline/figures.ts";

/** Secrets annotated at most (the summary lists as many). */
const SECRETS_ANNOTATED = 20;

/** Where the check ran: the project folder and the checkout's root (`GITHUB_WORKSPACE`). */
export interface AnnotationPlace {
  /** The folder slop ran in (the action's `working-directory`). */
  cwd: string;
  /** The repository's checkout: annotation paths are relative to it. @default {cwd} */
  workspace?: string;
}

/** What the annotations are made from: the check's result in the action's terms. */
export interface AnnotatedCheck {
  /** `drift` or `within` annotate the divergence; `secret` the secrets. */
  status: string;
  /** The lock's name, as `slop check --json` gives it. */
  lock?: string;
  /** The first divergence. */
  diff?: LockDiff;
  /** The tokenizer of the divergence's token counts, when the JSON says which. */
  tokenizer?: string;
  /** What `--fail-on-secret` found. */
  secrets?: Array<{ path: string; line: number; rule: string }>;
  /** The command that re-pins the prefix (`slop check --update`, with the inputs' flags). */
  update: string;
  /** With status `error`: slop's message. */
  error?: string;
}

/**
 * The annotation lines of a check: one at the first divergent file (an error
 * on a drift, a warning on a drift within `max-invalidated`; on no file when
 * the divergence is a section's), or one at each secret's line; an error that
 * says what to do when there is no lock or slop failed; none on a match. Without
 * one, a failed check showed on the pull request as an exit code alone.
 *
 * @example
 * ```ts
 * import { annotationLines } from "./_annotations.ts";
 * annotationLines({ status: "match", update: "slop check --update" }, { cwd: "/repo" }); // []
 * ```
 */
export function annotationLines(check: AnnotatedCheck, place: AnnotationPlace): string[] {
  if (check.status === "secret") {
    return (check.secrets ?? []).slice(0, SECRETS_ANNOTATED).map((s) =>
      command(
        "error",
        {
          file: repoPath(s.path, place),
          line: String(s.line),
          title: "slop check: a secret",
        },
        `A secret (${s.rule}) is on this line: take it out of the file (and revoke it), or leave the file out of slop's files`,
      )
    );
  }
  const lock = check.lock ?? "slop.lock";
  if (check.status === "no-lock") {
    return [
      command(
        "error",
        { title: "slop check: no lock" },
        `No ${lock} to compare the stable prefix with: run \`${check.update}\` and commit ${lock}`,
      ),
    ];
  }
  if (check.status === "error") {
    const first = (check.error ?? "slop check failed").split("\n")[0];
    return [command("error", { title: "slop check: error" }, first)];
  }
  const diff = check.diff;
  if ((check.status !== "drift" && check.status !== "within") || !diff) return [];
  const share = diff.pinnedTokens ? (diff.invalidatedTokens / diff.pinnedTokens) * 100 : 0;
  const tokens = check.tokenizer ? `${check.tokenizer} tokens` : "tokens";
  const cost =
    `${formatCount(diff.invalidatedTokens)} of its ${formatCount(diff.pinnedTokens)} ${tokens} ` +
    `(${share.toFixed(1)}%), from here on, lose their provider cache. If intended, run ` +
    `\`${check.update}\` and commit ${lock} with this change`;
  const level = check.status === "within" ? "warning" : "error";
  const title = "slop check: prefix drift";
  if (!diff.file) {
    const message = `The stable prefix pinned in ${lock} breaks at the block "${diff.id}" ` +
      `(${changeWord(diff)}): ${cost}`;
    return [command(level, { title }, message)];
  }
  const message = `This file's ${changeWord(diff)} breaks the stable prefix pinned in ${lock} ` +
    `here: ${cost}`;
  return [command(level, { file: repoPath(diff.file, place), title }, message)];
}

/** What happened to the file, in a word or two. */
function changeWord(diff: LockDiff): string {
  if (diff.kind === "changed") return "change";
  if (diff.kind === "added") return "addition";
  if (diff.kind === "removed") return "removal";
  return "move in the order";
}

/** A path of the project as the checkout names it, with forward slashes. */
function repoPath(path: string, place: AnnotationPlace): string {
  const full = join(place.cwd, path);
  const rel = relative(place.workspace ?? place.cwd, full);
  return (rel.startsWith("..") ? path : rel).split(sep).join("/");
}

/** One workflow command, its properties and message escaped as GitHub reads them. */
function command(level: string, properties: Record<string, string>, message: string): string {
  const props = Object.entries(properties)
    .map(([key, value]) => `${key}=${escapeProperty(value)}`)
    .join(",");
  return `::${level} ${props}::${escapeData(message)}`;
}

function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}
