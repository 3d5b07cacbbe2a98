/**
 * Small helpers for CLI output.
 *
 * @module
 */

/** Human-readable size: `512 B`, `1.5 KB`, `2.0 MB`. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** Print an error line to stderr, prefixed with `slop:`. */
export function printError(message: string): void {
  console.error(`slop: ${message}`);
}
