/**
 * Where a command's output goes: this process's stdout and stderr, or a
 * build server's connection to the client that asked for the build (which
 * writes the bytes to its own stdout and stderr).
 *
 * @module
 */

/** A command's output streams. */
export interface Terminal {
  /** Write bytes or text to stdout, all of it. */
  stdout(data: string | Uint8Array): Promise<void>;
  /** Write text to stderr, all of it. */
  stderr(text: string): void;
  /** Whether stderr is a terminal (a progress bar is drawn only then). */
  stderrIsTerminal: boolean;
}

/**
 * This process's stdout and stderr.
 *
 * @example
 * ```ts
 * import { processTerminal } from "./_terminal.ts";
 * processTerminal().stderr("slop: hello\n");
 * ```
 */
export function processTerminal(): Terminal {
  return {
    async stdout(data) {
      const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
      let written = 0;
      while (written < bytes.length) written += await Deno.stdout.write(bytes.subarray(written));
    },
    stderr(text) {
      const bytes = new TextEncoder().encode(text);
      let written = 0;
      while (written < bytes.length) written += Deno.stderr.writeSync(bytes.subarray(written));
    },
    stderrIsTerminal: Deno.stderr.isTerminal(),
  };
}
