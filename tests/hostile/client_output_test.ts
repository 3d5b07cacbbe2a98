import assert from "node:assert/strict";
import { join } from "node:path";
import { handOff } from "../../server/client.ts";
import { readFrames, writeFrame, writeMessage } from "../../server/_frames.ts";
import { tempDir } from "../_helpers.ts";

Deno.test({
  name:
    "a build server's client whose stdout takes no writes stops with that error: the build is not run again in its own process",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const dir = await tempDir();
    const socket = join(dir, "server.sock");
    const listener = Deno.listen({ transport: "unix", path: socket });
    // A server that sends a piece of the document, then the build's exit code.
    const served = (async () => {
      const conn = await listener.accept();
      try {
        for await (const frame of readFrames(conn)) if (frame.kind === "message") break;
        await writeFrame(conn, "stdout", new TextEncoder().encode("## Files\n"));
        await writeMessage(conn, { type: "exit", code: 0 });
      } catch {
        // The client went away.
      } finally {
        conn.close();
      }
    })();
    const files = {
      dir,
      id: "test",
      socket,
      lock: join(dir, "lock"),
      log: join(dir, "log"),
      info: join(dir, "info"),
    };
    const full = new Error("No space left on device (os error 28)");
    const answer = handOff(files, { type: "build" }, {
      idleMs: 60_000,
      entry: new URL("../../cli.ts", import.meta.url),
      output: { stdout: () => Promise.reject(full), stderr: () => {} },
    });
    // Taken for a server that died, the build ran again in the client and printed the
    // document again after the part already written.
    await assert.rejects(answer, (error) => error === full);
    await served;
    listener.close();
    await Deno.remove(dir, { recursive: true });
  },
});
