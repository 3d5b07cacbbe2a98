/**
 * Secret-scan worker: receives `{ id, rules, items: [{ path, text }] }`,
 * scans each text exactly as the main thread would (`redactText` with the
 * user's rules and secretlint) and answers `{ id, results }`, one
 * `{ text?, findings }` per item (`text` only when something was redacted),
 * or `{ id, error }`. Then, with `{ id, table, texts }` (a compact BPE table,
 * see `pipeline/_bpe.ts`), it counts texts for `pipeline/_precount.ts` and
 * answers `{ id, counts }`. Started by `pipeline/secrets.ts` for large scans.
 *
 * @module
 */

import { redactText } from "./secrets.ts";
import { bpeCounter, type BpeTable } from "./_bpe.ts";

interface Job {
  id: number;
  rules?: Record<string, string>;
  items?: Array<{ path: string; text: string }>;
  table?: BpeTable;
  texts?: string[];
}

let count: ((text: string) => number) | undefined;

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<Job>) => void) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = async (event) => {
  const { id, rules, items, table, texts } = event.data;
  try {
    if (texts) {
      count ??= bpeCounter(table!);
      scope.postMessage({ id, counts: texts.map(count) });
      return;
    }
    const results = [];
    for (const item of items!) {
      const r = await redactText(item.text, item.path, { rules });
      results.push(r.findings.length ? r : { findings: [] });
    }
    scope.postMessage({ id, results });
  } catch (error) {
    scope.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
};
