/**
 * Small helpers for CLI output.
 *
 * @module
 */

import { printablePath } from "../pipeline/helpers.ts";
import { redactMessage } from "../pipeline/redact_message.ts";
import { formatCount } from "../pipeline/figures.ts";

/** Human-readable size: `512 B`, `1.5 KB`, `2.0 MB`. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Print a warning line to stderr, prefixed with `warning:`. A warning is one line: a path in it
 * with a newline or a bidi override is written with escapes ({@linkcode printablePath}). A
 * secret it quotes is redacted ({@linkcode shownMessage}).
 */
export function printWarning(message: string): void {
  console.error(`warning: ${printablePath(shownMessage(message))}`);
}

/**
 * A message as the CLI prints it: any secret it quotes redacted with slop's own rules. Errors
 * and warnings quote what they were given (`Invalid --top "…"`, a config value of the wrong
 * type, a parser's excerpt of a config line, a provider's HTTP body), and a key pasted into the
 * wrong flag or key would otherwise reach the terminal and CI logs. A build's own warnings were
 * redacted with the config's rules too, before they got here.
 *
 * @example
 * ```ts
 * import { shownMessage } from "./_output.ts";
 * shownMessage(`Invalid --top "ghp_${"a1B2".repeat(9)}"`); // 'Invalid --top "[REDACTED:github]"'
 * ```
 */
export function shownMessage(message: string): string {
  return cutLongQuotes(redactMessage(message));
}

/** A quoted value longer than this in a printed message is cut (a 1 MB flag value, a name). */
const LONG_QUOTE = 500;

/** How much of a cut quoted value a message keeps. */
const KEPT_QUOTE = 100;

/**
 * `message` with every quoted value over {@linkcode LONG_QUOTE} characters cut to its first
 * {@linkcode KEPT_QUOTE} and a count of the rest: a message quotes what it was given (a flag's
 * value, a persona's name, a path), and a megabyte of it made a megabyte-long error line.
 *
 * @example
 * ```ts
 * import { cutLongQuotes } from "./_output.ts";
 * cutLongQuotes(`Unknown persona "${"z".repeat(600)}"`).length; // 141
 * ```
 */
export function cutLongQuotes(message: string): string {
  if (message.length <= LONG_QUOTE) return message;
  return message.replace(
    new RegExp(`"([^"\\n]{${LONG_QUOTE + 1},})"`, "g"),
    (_, inner: string) =>
      `"${inner.slice(0, KEPT_QUOTE)}…" (${inner.length - KEPT_QUOTE} more characters)`,
  );
}

/**
 * The text an error no command caught prints: one line that says it is slop's bug, then the
 * stack for the report, all redacted (a message or a frame may quote a file's text or a flag's
 * value).
 *
 * @example
 * ```ts
 * import { crashReport } from "./_output.ts";
 * crashReport(new Error("boom")).split("\n")[0]; // "slop: internal error: boom"
 * ```
 */
export function crashReport(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const loading = loadFailure(error);
  if (loading) return loading;
  const stack = error instanceof Error && error.stack
    ? error.stack.split("\n").filter((line) => /^\s+at /.test(line)).map(plain)
    : [];
  const lines = [
    `slop: internal error: ${message.split("\n")[0]}`,
    "(a bug in slop: please report it with the lines below, which have secrets redacted)",
    ...stack,
  ];
  return shownMessage(lines.join("\n")) + "\n";
}

/**
 * What slop prints when Deno cannot fetch one of slop's npm packages (no network, a proxy or a
 * certificate the machine does not trust, a registry that is down): no bug in slop, so not the
 * crash report. Deno's message is kept whole (its second line names the cause), with what to
 * check; undefined for any other error.
 *
 * @example
 * ```ts
 * import { loadFailure } from "./_output.ts";
 * const error = Object.assign(new TypeError("Failed caching npm package 'zod@4.6.7'"), {
 *   code: "ERR_MODULE_NOT_FOUND",
 * });
 * loadFailure(error)?.split("\n")[0]; // "slop: cannot load slop's npm packages: Failed caching npm package 'zod@4.6.7'"
 * ```
 */
export function loadFailure(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  const message = plain(error.message);
  const npm = /\bnpm package\b|\bfor package "|registry/i.test(message.split("\n")[0]);
  if (code !== "ERR_MODULE_NOT_FOUND" || !npm) return undefined;
  const lines = message.split("\n").filter((line) => line.trim() && !/^\s+at /.test(line));
  return shownMessage([
    `slop: cannot load slop's npm packages: ${lines[0]}`,
    ...lines.slice(1).map((line) => `  ${line.trim()}`),
    "slop downloads them from the npm registry the first time they are used, into Deno's cache " +
    "(DENO_DIR): check the network, a proxy (HTTPS_PROXY) and its certificate (DENO_CERT), or " +
    "the registry (NPM_CONFIG_REGISTRY), then run the command again",
  ].join("\n")) + "\n";
}

/** `text` without terminal colour codes (Deno colours a stack's file names). */
function plain(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/\x1b\[[0-9;]*m/g, "");
}

/**
 * How many "Redacted a secret" warnings a build prints before one line counts the rest: a project
 * full of test credentials redacts hundreds, which buried the rest of the output. The manifest
 * lists every one.
 */
export const REDACTIONS_SHOWN = 20;

/**
 * Whether a build's warning is a redaction's, one of those {@linkcode REDACTIONS_SHOWN} caps.
 *
 * @example
 * ```ts
 * import { isRedaction } from "./_output.ts";
 * isRedaction('Redacted a secret in "a.env" line 2 (password)'); // true
 * ```
 */
export function isRedaction(warning: string): boolean {
  return warning.startsWith("Redacted a secret in ");
}

/**
 * The line that stands for the redaction warnings past {@linkcode REDACTIONS_SHOWN}.
 *
 * @example
 * ```ts
 * import { moreRedactions } from "./_output.ts";
 * moreRedactions(6); // "... and 6 more secrets redacted (the manifest's warnings list them)"
 * ```
 */
export function moreRedactions(more: number): string {
  return `... and ${formatCount(more)} more secrets redacted (the manifest's warnings list them)`;
}

/**
 * Warnings of a build a command runs only to look at it (`stats --build`, `report --build`,
 * `check`): each printed with `warn` but the redactions, which `slop build` names one by one and
 * which would bury the command's own lines; `done` prints one line that counts them.
 *
 * @example
 * ```ts
 * import { countedRedactions } from "./_output.ts";
 * const warnings = countedRedactions();
 * warnings.onWarning('Redacted a secret in "a.env" line 2 (password)');
 * warnings.done(); // warning: 1 secret redacted (`slop build` names each one)
 * ```
 */
export function countedRedactions(
  warn: (message: string) => void = printWarning,
): { onWarning: (message: string) => void; done: () => void } {
  let redactions = 0;
  return {
    onWarning: (message) => isRedaction(message) ? redactions++ : warn(message),
    done: () => {
      if (redactions === 0) return;
      const what = redactions === 1 ? "1 secret" : `${formatCount(redactions)} secrets`;
      warn(`${what} redacted (\`slop build\` names each one)`);
      redactions = 0;
    },
  };
}

/** Print an error line to stderr, prefixed with `slop:`; a secret it quotes is redacted. */
export function printError(message: string): void {
  console.error(`slop: ${shownMessage(message)}`);
}
