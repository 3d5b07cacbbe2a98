// A thread that has not loaded the recovery words' check: what the sync and async scans answer.
import { redactSync, redactText, redactUnlessHinted } from "../../pipeline/_scan.ts";

const self = globalThis as unknown as Worker;
self.onmessage = async (e: MessageEvent<string>) => {
  const line = e.data;
  const unhinted = redactUnlessHinted(line, { path: "a.md" });
  const sync = redactSync(`const m = "${line.trim()}";\n`).text;
  const text = (await redactText(line, "a.md")).text;
  const after = redactUnlessHinted(line, { path: "a.md" })?.text;
  self.postMessage({
    unhinted: unhinted === undefined ? "undefined" : unhinted.text,
    sync,
    text,
    after,
  });
};
