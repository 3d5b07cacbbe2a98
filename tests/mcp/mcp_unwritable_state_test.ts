// A state dir or output folder the server cannot write: the tool error names the folder and says
// what to do for the server (its state dir, or output.dir), not the command line's `--stdout`.
import assert from "node:assert/strict";
import { loadMcpClient, loadMcpServer } from "../../deps.ts";
import { createMcpServer, SERVER_WRITE_HINT } from "../../cli/_mcp_server.ts";
import { makeProject } from "../_helpers.ts";
import { texts } from "./_client.ts";

// /sys takes no new folders (EPERM; EACCES for others), and its folders take no new files.
const REFUSED = "(operation not permitted|permission denied)";

Deno.test({
  name:
    "build_context in a state dir or output folder that takes no writes says what to do for the server",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const root = await makeProject({
      "a.py": "x = 1\n",
      "ro/slop.config.ts":
        'export default { files: ["../a.py"], output: { dir: "/sys/kernel" } };\n',
    });
    const sdk = await loadMcpServer();
    const { Client, InMemoryTransport } = await loadMcpClient();
    const [a, b] = InMemoryTransport.createLinkedPair();
    const server = createMcpServer(sdk, { root, stateDir: "/sys/slop_state" });
    await server.connect(a);
    const client = new Client({ name: "unwritable-test", version: "1.0.0" });
    await client.connect(b);
    const cwd = Deno.cwd();
    const hint = SERVER_WRITE_HINT.replace(/[()]/g, "\\$&");
    try {
      for (
        const [args, problem] of [
          [{}, `Cannot create the output folder "/sys/slop_state/out": ${REFUSED}`],
          [
            { config: "ro/slop.config.ts" },
            `Cannot write to the output folder "/sys/kernel": ${REFUSED}`,
          ],
        ] as const
      ) {
        const result = await client.callTool({ name: "build_context", arguments: args });
        assert.equal(result.isError, true);
        const [message] = texts(result);
        assert.match(message, new RegExp(`^${problem}${hint}$`, "i"));
        assert.doesNotMatch(message, /--stdout/);
      }
    } finally {
      await client.close();
      await server.close();
      Deno.chdir(cwd);
    }
  },
});
