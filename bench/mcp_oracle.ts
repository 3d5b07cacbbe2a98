/**
 * An oracle for `slop mcp` on real checkouts, driven with the MCP SDK's client over stdio as an
 * agent drives it. For `build_context` at each budget (with a task and without), `view_files`,
 * `token_stats` and the resources `slop://latest/document/N` and `slop://latest/manifest/N`:
 * every reply (all its texts; the structured data comes as one of them too) has at most 18,000 o200k tokens; an inline
 * document is the written file; the parts joined are the written file byte for byte; a bad
 * argument is an error that names it. Prints one JSON line per call; `problems` lists what failed.
 * See bench/README.md, "Budgets and tasks on real repositories".
 *
 * ```sh
 * deno run -A bench/mcp_oracle.ts /path/to/checkout "a commit subject"
 * ```
 *
 * Each checkout gets written builds in its `.slop/out/` (as `build_context` writes them).
 *
 * @module
 */

import { join } from "node:path";
import { countTokens } from "../pipeline/tokens.ts";
import { connect } from "../tests/mcp/_client.ts";

const CAP = 18000;
/**
 * Calls keep the SDK's default request timeout (60 s), as an agent's client does: a build that
 * runs longer is answered that it goes on (`callAgain`), and the call is made again until its
 * result comes.
 */
const AGAIN_LIMIT = 100;

type Reply = {
  content?: Array<{ type: string; text?: string }>;
  contents?: Array<{ text?: string }>;
  structuredContent?: unknown;
  isError?: boolean;
};

/** The o200k tokens of a whole reply: its texts, each counted (the data comes as one of them). */
async function replyTokens(reply: Reply): Promise<number> {
  let tokens = 0;
  for (const item of reply.content ?? reply.contents ?? []) {
    tokens += await countTokens(item.text ?? "");
  }
  return tokens;
}

/** Every part of a resource; its text (the last item of each part), joined. */
async function readParts(
  client: { readResource(r: { uri: string }): Promise<unknown> },
  base: string,
  problems: string[],
): Promise<string> {
  const first = await client.readResource({ uri: base }) as Reply;
  const note = first.contents!.length > 1 ? first.contents![0].text ?? "" : "";
  const count = Number(/part 1 of (\d+)/.exec(note)?.[1] ?? 1);
  let joined = "";
  for (let n = 1; n <= count; n++) {
    const part = await client.readResource({ uri: `${base}/${n}` }) as Reply;
    const tokens = await replyTokens(part);
    if (tokens > CAP) problems.push(`${base}/${n}: ${tokens} tokens`);
    joined += part.contents!.at(-1)!.text ?? "";
  }
  const past = await client.readResource({ uri: `${base}/${count + 1}` }).then(
    () => "no error",
    (e: Error) => e.message,
  );
  if (!past.includes(String(count))) problems.push(`${base}/${count + 1}: ${past.slice(0, 120)}`);
  return joined;
}

async function run(root: string, task: string): Promise<void> {
  const { client } = await connect(root);
  // A tool call with the SDK's default timeout, made again while the reply says the build goes
  // on; the reply's tokens, how many calls it took and the longest wait for one.
  const call = async (name: string, args: Record<string, unknown>) => {
    const waits: number[] = [];
    const progress: string[] = [];
    for (;;) {
      const start = performance.now();
      const reply = await client.callTool({ name, arguments: args }) as Reply;
      waits.push(Math.round(performance.now() - start));
      // deno-lint-ignore no-explicit-any
      const data = reply.structuredContent as any;
      if (data?.callAgain !== true || waits.length >= AGAIN_LIMIT) {
        const slowest = Math.max(...waits);
        return { reply, tokens: await replyTokens(reply), calls: waits.length, slowest, progress };
      }
      progress.push(data.progress?.message ?? data.status);
    }
  };
  const project = root.split("/").at(-1);
  const say = (call: string, row: Record<string, unknown>) =>
    console.log(JSON.stringify({ project, call, ...row }));
  const builds: Array<Record<string, unknown>> = [
    { budget: 1000 },
    { budget: 8000 },
    { budget: 16000, task },
    { budget: 32000, task },
    { budget: 128000 },
    {},
  ];
  for (const args of builds) {
    const problems: string[] = [];
    const { reply, tokens, calls, slowest, progress } = await call("build_context", args);
    if (reply.isError) problems.push(`error: ${reply.content?.[0]?.text?.slice(0, 200)}`);
    if (tokens > CAP) problems.push(`reply ${tokens} tokens`);
    // deno-lint-ignore no-explicit-any
    const data = reply.structuredContent as any;
    if (data?.document) {
      const file = await Deno.readTextFile(join(root, data.document));
      const docTokens = await countTokens(file);
      if (args.budget && docTokens > Number(args.budget)) {
        problems.push(`document ${docTokens} > budget ${args.budget}`);
      }
      if (data.inline && !reply.content?.some((c) => c.text === file)) {
        problems.push("inline document is not the written file");
      }
      const joined = await readParts(client, "slop://latest/document", problems);
      if (joined !== file) problems.push("document parts do not join to the file");
      const manifest = await Deno.readTextFile(join(root, data.manifest));
      const parts = await readParts(client, "slop://latest/manifest", problems);
      if (parts !== manifest) problems.push("manifest parts do not join to the file");
    }
    if (data?.callAgain) problems.push(`still running after ${calls} calls`);
    say(`build_context ${JSON.stringify(args)}`, {
      tokens,
      inline: data?.inline,
      calls,
      slowestMs: slowest,
      progress,
      problems,
    });
  }
  const code = ["**/*.go", "**/*.py", "**/*.ts", "**/*.js", "**/*.c", "**/*.h", "**/*.md"];
  for (
    const args of [{ files: code, maxFiles: 2000 }, {
      files: code,
      maxFiles: 2000,
      view: "skeleton",
    }]
  ) {
    const { reply, tokens } = await call("view_files", args);
    const problems = tokens > CAP ? [`reply ${tokens} tokens`] : [];
    if (reply.isError) problems.push(`error: ${reply.content?.[0]?.text?.slice(0, 200)}`);
    say(`view_files ${JSON.stringify(args)}`, { tokens, problems });
  }
  const { tokens: statsTokens } = await call("token_stats", { top: 100000 });
  say("token_stats top 100000", {
    tokens: statsTokens,
    problems: statsTokens > CAP ? ["over"] : [],
  });
  // Bad arguments: each error must name the argument at fault (`one` is a file of the project).
  const listed = await new Deno.Command("git", { args: ["ls-files"], cwd: root }).output();
  const one = new TextDecoder().decode(listed.stdout).split("\n")[0];
  const bad: Array<[string, Record<string, unknown>, string]> = [
    ["build_context", { budget: 0 }, "budget"],
    ["build_context", { budget: -5 }, "budget"],
    ["build_context", { budget: "a lot" }, "budget"],
    ["build_context", { budget: 1.5 }, "budget"],
    ["build_context", { maxInlineTokens: -1 }, "maxInlineTokens"],
    ["build_context", { view: "nope" }, "view"],
    ["build_context", { task: 7 }, "task"],
    ["view_files", { files: [] }, "files"],
    ["view_files", { files: ["no/such/**"] }, "files"],
    ["view_files", { files: ["**/*"], maxFiles: 1 }, "files"],
    [
      "view_files",
      { files: [one], view: "custom", slices: [{ startLine: 5, endLine: 2 }] },
      "slices[0]",
    ],
    ["view_files", { files: [one], maxTokens: -1 }, "maxTokens"],
  ];
  for (const [name, args, key] of bad) {
    const reply: Reply = await client.callTool({ name, arguments: args }).then(
      (r: unknown) => r as Reply,
      (e: Error) => ({ isError: true, content: [{ type: "text", text: e.message }] }) as Reply,
    );
    const text = reply.content?.map((c) => c.text ?? "").join("\n") ?? "";
    const problems = !reply.isError ? ["no error"] : text.includes(key) ? [] : ["key not named"];
    say(`${name} ${JSON.stringify(args)}`, { error: text.slice(0, 160), problems });
  }
  for (
    const uri of [
      "slop://latest/document/0",
      "slop://latest/document/x",
      "slop://latest/document/1.5",
    ]
  ) {
    const message = await client.readResource({ uri }).then(
      () => "no error",
      (e: Error) => e.message,
    );
    say(`resource ${uri}`, {
      error: message.slice(0, 160),
      problems: message === "no error" ? ["no error"] : [],
    });
  }
  await client.close();
}

if (import.meta.main) {
  const [root, task] = Deno.args;
  if (!root) throw new Error("Usage: deno run -A bench/mcp_oracle.ts <checkout> [task]");
  await run(root, task ?? "fix the error handling of the main entry point");
}
