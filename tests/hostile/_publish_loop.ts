/**
 * Test helper run as a subprocess: publishes a large document over and over
 * into `Deno.args[0]`, so a SIGKILL at a random moment lands mid-publish.
 *
 * @module
 */

import { publish } from "../../pipeline/emit.ts";
import { sha256 } from "../../pipeline/read.ts";

const dir = Deno.args[0];
const document = "0123456789abcdef".repeat(512 * 1024); // 8 MB
const hash = sha256(document);
for (;;) {
  await publish(document, {
    dir,
    namespace: "context",
    manifestFor: (output) => ({ output, total: { sha256: hash } }) as never,
    root: dir,
  });
}
