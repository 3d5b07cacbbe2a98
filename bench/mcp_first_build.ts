/**
 * A big project's first `build_context` as an agent's client sees it: the SDK's client over stdio
 * with its default request timeout (60 s), calling again while the reply says the build goes on
 * (`callAgain`), or after a timeout, until the result comes (at most ten calls). Prints one JSON
 * line per call: how long it waited, and what came (the result, `running` or `queued` with the
 * build's progress, or the error). Then the same call once more (warm). See bench/README.md, "The
 * MCP server's first build on a large tree".
 *
 * ```sh
 * deno run -A bench/mcp_first_build.ts /path/to/checkout '{"budget":20000}' [server flags...]
 * ```
 *
 * Delete the checkout's `.slop/` first for a cold build.
 *
 * @module
 */

import { connect, data, texts } from "../tests/mcp/_client.ts";

async function run(root: string, args: Record<string, unknown>, flags: string[]): Promise<void> {
  const { client, close } = await connect(root, flags);
  const say = (row: Record<string, unknown>) => console.log(JSON.stringify(row));
  try {
    for (let call = 1; call <= 10; call++) {
      const start = performance.now();
      const outcome = await client.callTool({ name: "build_context", arguments: args }).then(
        (reply: unknown) => ({ reply }),
        (error: Error) => ({ error: error.message }),
      );
      const ms = Math.round(performance.now() - start);
      if ("error" in outcome) {
        say({ call, ms, error: outcome.error });
        continue;
      }
      const d = data(outcome.reply);
      if (d?.callAgain) {
        say({
          call,
          ms,
          status: d.status,
          progress: d.progress?.message,
          text: texts(outcome.reply)[0],
        });
        continue;
      }
      say({
        call,
        ms,
        number: d?.number,
        tokens: d?.total?.tokens,
        error: d ? undefined : texts(outcome.reply)[0],
      });
      break;
    }
    const start = performance.now();
    const warm = await client.callTool({ name: "build_context", arguments: args });
    say({ call: "warm", ms: Math.round(performance.now() - start), number: data(warm)?.number });
  } finally {
    await close();
  }
}

if (import.meta.main) {
  const [root, args, ...flags] = Deno.args;
  if (!root) {
    throw new Error("Usage: deno run -A bench/mcp_first_build.ts <checkout> [args JSON] [flags]");
  }
  await run(root, JSON.parse(args ?? "{}"), flags);
}
