/**
 * How many tokens each reply of `slop mcp` has, in o200k (what slop counts) and in the Claude
 * tokenizer Anthropic published (`@anthropic-ai/tokenizer`, the one of its older models: the
 * closest public stand-in for the 25,000 tokens Claude Code accepts from one tool call). Drives
 * this checkout's `slop mcp` with the MCP SDK's client over stdio, as an agent does, in each
 * project given, and prints one row per call.
 *
 *   deno run -A bench/mcp_replies.ts ~/src/project [more projects...]
 *
 * Each project gets written builds in its `.slop/out/` (as `build_context` writes them).
 *
 * @module
 */

import { join } from "node:path";
import { countTokens } from "../pipeline/tokens.ts";
import { connect } from "../tests/mcp/_client.ts";

/** The calls, as an agent following the skill makes them; the globs cover the usual languages. */
const CODE = ["**/*.go", "**/*.py", "**/*.ts", "**/*.rs", "**/*.js", "**/*.java", "**/*.c"];
const CALLS: Array<[string, Record<string, unknown>]> = [
  ["build_context", { budget: 16000 }],
  ["build_context", { budget: 20000 }],
  ["build_context", { budget: 16000, task: "fix the error handling of the main entry point" }],
  ["view_files", { files: CODE, maxFiles: 500 }],
  ["view_files", { files: CODE, maxFiles: 500, view: "skeleton" }],
  ["token_stats", { top: 50 }],
  ["build_context", {}],
  ["resource", { uri: "slop://latest/document" }],
  ["resource", { uri: "slop://latest/manifest" }],
];

const claude = (await import("npm:@anthropic-ai/tokenizer@0.0.4")).countTokens;
console.log("| project | call | o200k | Claude (older tokenizer) | ratio |");
console.log("| --- | --- | ---: | ---: | ---: |");
for (const root of Deno.args) {
  const { client } = await connect(root);
  for (const [name, args] of CALLS) {
    const result = name === "resource"
      ? await client.readResource({ uri: String(args.uri) })
      : await client.callTool({ name, arguments: args });
    const items = ((result as { content?: unknown[] }).content ??
      (result as { contents?: unknown[] }).contents ?? []) as Array<{ text?: string }>;
    const text = items.map((c) => c.text ?? "").join("\n");
    const [o200k, anthropic] = [await countTokens(text), claude(text)];
    const call = `${name} ${JSON.stringify(args)}`.replace(/\|/g, "\\|");
    const ratio = o200k ? (anthropic / o200k).toFixed(2) : "-";
    console.log(
      `| ${join(root).split("/").at(-1)} | ${call} | ${o200k} | ${anthropic} | ${ratio} |`,
    );
  }
  await client.close();
}
