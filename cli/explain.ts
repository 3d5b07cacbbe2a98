/**
 * `slop explain`: for the last two builds (the two highest-numbered
 * manifests in the output dir), how much of the newer document is a
 * byte-identical prefix of the older one, and which block ended it.
 *
 * @module
 */

import { loadConfig } from "../pipeline/config.ts";
import { countTokens } from "../pipeline/tokens.ts";
import { formatCount } from "../pipeline/figures.ts";
import type { Manifest, ManifestBlock, ResolvedConfig } from "../pipeline/types.ts";
import { formatBytes, printError, printWarning } from "./_output.ts";
import { type WrittenBuild as WrittenOutput, writtenBuilds } from "./_written_builds.ts";
import { checkRegular } from "../pipeline/helpers.ts";

/** Flags of `slop explain`. */
export interface ExplainFlags {
  config?: string;
  stateDir?: string;
  json?: boolean;
}

/** One written build, its document as bytes. */
export type WrittenBuild = WrittenOutput<Uint8Array>;

/** What `slop explain` found. */
export interface Explanation {
  /** Output numbers compared: older, newer. */
  builds: [number, number];
  /** Shared prefix in bytes. */
  bytes: number;
  /** Bytes of the newer document. */
  totalBytes: number;
  /** Tokens of the shared prefix (whole blocks plus the shared part of the ending block). */
  tokens: number;
  /** Tokens of the newer document. */
  totalTokens: number;
  /** Whether the stable prefix hash stayed the same. */
  stablePrefixSame: boolean;
  /** The block that ended the shared prefix (none when one document contains the other). */
  ended?: {
    id: string;
    section: string;
    file?: string;
    kind: "changed" | "added" | "removed" | "moved";
    /** Byte offset of the divergence inside the block, when it changed in place. */
    at?: number;
    /** The newer build's block at the divergence, when it is another block. */
    now?: string;
  };
  /** The two builds' formats (older, newer), when they differ. */
  formats?: [string, string];
}

/** A written build's format, from its document's name. */
function formatOf(manifest: Manifest): string {
  const output = manifest.output ?? "";
  return output.endsWith(".xml") ? "xml" : output.endsWith(".doc.json") ? "json" : "markdown";
}

/**
 * The last `count` written builds of an output dir, oldest first.
 *
 * @example
 * ```ts
 * import { lastBuilds } from "./explain.ts";
 * // const [older, newer] = await lastBuilds(config.output.dir, "context", config.root);
 * ```
 */
export async function lastBuilds(
  dir: string,
  namespace: string,
  root: string,
  options: { count?: number; warn?: (message: string) => void } = {},
): Promise<WrittenBuild[]> {
  const { count = 2, warn = () => {} } = options;
  const out: WrittenBuild[] = [];
  if (count === 0) return out;
  for await (const build of writtenBuilds({ dir, namespace, root }, readDocument, warn)) {
    out.push(build);
    if (out.length === count) break;
  }
  return out.reverse();
}

/** A document's bytes; a FIFO or device in its place is passed over, never opened. */
async function readDocument(path: string): Promise<Uint8Array> {
  checkRegular(await Deno.stat(path));
  return await Deno.readFile(path);
}

/**
 * Compare two builds.
 *
 * @example
 * ```ts
 * import { explain } from "./explain.ts";
 * // const e = await explain(older, newer);
 * ```
 */
export async function explain(older: WrittenBuild, newer: WrittenBuild): Promise<Explanation> {
  const a = older.document;
  const b = newer.document;
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  const blocks = newer.manifest.blocks;
  let tokens = 0;
  let ending: ManifestBlock | undefined;
  for (const block of blocks) {
    if (block.offset + block.length <= n) tokens += block.tokens;
    else {
      ending = block;
      break;
    }
  }
  let ended: Explanation["ended"];
  if (ending && n < b.length && n < a.length) {
    const at = n - ending.offset;
    if (at > 0) {
      const part = new TextDecoder().decode(b.subarray(ending.offset, n));
      tokens += await countTokens(part);
    }
    const oldHere = older.manifest.blocks.find((x) => n >= x.offset && n < x.offset + x.length);
    const newIds = new Map(blocks.map((x) => [x.id, x]));
    const oldIds = new Set(older.manifest.blocks.map((x) => x.id));
    let subject: ManifestBlock = ending;
    let kind: NonNullable<Explanation["ended"]>["kind"];
    if (oldHere && !newIds.has(oldHere.id)) [kind, subject] = ["removed", oldHere];
    else if (oldHere && newIds.get(oldHere.id)!.sha256 !== oldHere.sha256) {
      [kind, subject] = ["changed", oldHere];
    } else if (!oldIds.has(ending.id)) kind = "added";
    else kind = "moved";
    const [section, ...rest] = subject.id.split(":");
    ended = {
      id: subject.id,
      section,
      // Only file blocks name a file (`history:recent` is a part of the history).
      ...(rest.length && section === "files" ? { file: rest.join(":") } : {}),
      kind,
      ...(kind === "changed" && oldHere?.id === ending.id ? { at } : {}),
      ...(ending.id !== subject.id ? { now: ending.id } : {}),
    };
  }
  return {
    builds: [older.number, newer.number],
    bytes: n,
    totalBytes: b.length,
    tokens,
    totalTokens: newer.manifest.total.tokens,
    stablePrefixSame: older.manifest.prefix.sha256 === newer.manifest.prefix.sha256,
    ...(ended ? { ended } : {}),
    ...(formatOf(older.manifest) !== formatOf(newer.manifest)
      ? { formats: [formatOf(older.manifest), formatOf(newer.manifest)] as [string, string] }
      : {}),
  };
}

/**
 * Compare the last two written builds of a config; undefined when it has
 * fewer than two. What `slop explain` prints and the MCP server's `explain`
 * tool returns.
 *
 * @example
 * ```ts
 * import { explainLastBuilds } from "./explain.ts";
 * // const e = await explainLastBuilds(await loadConfig());
 * ```
 */
export async function explainLastBuilds(
  config: ResolvedConfig,
  options: { warn?: (message: string) => void } = {},
): Promise<Explanation | undefined> {
  const { dir, namespace } = config.output;
  const builds = await lastBuilds(dir, namespace, config.root, options);
  return builds.length < 2 ? undefined : await explain(builds[0], builds[1]);
}

/** What `slop explain` says when there are not two builds to compare. */
export const NEED_TWO_BUILDS = "Need two written builds to explain: run `slop build` twice";

/**
 * Run `slop explain`; resolves to the exit code.
 *
 * @example
 * ```ts
 * import { runExplain } from "./explain.ts";
 * // const code = await runExplain({});
 * ```
 */
export async function runExplain(flags: ExplainFlags): Promise<number> {
  let e: Explanation | undefined;
  let tokenizer: ExplainTextOptions["tokenizer"];
  try {
    const config = await loadConfig({ config: flags.config, stateDir: flags.stateDir });
    tokenizer = config.budget.tokenizer;
    e = await explainLastBuilds(config, { warn: printWarning });
  } catch (error) {
    printError(error instanceof Error ? error.message : String(error));
    return 2;
  }
  if (!e) {
    printError(NEED_TWO_BUILDS);
    return 1;
  }
  console.log(flags.json ? JSON.stringify(e, null, 2) : explainText(e, { tokenizer }));
  return 0;
}

/** Options of {@linkcode explainText}. */
export interface ExplainTextOptions {
  /** The tokenizer of the manifests' counts (`budget.tokenizer`), named beside them. @default {"o200k"} */
  tokenizer?: "o200k" | "cl100k";
}

/**
 * The human text of an explanation.
 *
 * @example
 * ```ts
 * import { explainText } from "./explain.ts";
 * // console.log(explainText(await explain(older, newer), { tokenizer: "o200k" }));
 * ```
 */
export function explainText(e: Explanation, options: ExplainTextOptions = {}): string {
  const pct = (x: number, of: number) => of ? `${((x / of) * 100).toFixed(1)}%` : "100%";
  const name = (n: number) => `#${String(n).padStart(3, "0")}`;
  const lines = [
    `slop explain: build ${name(e.builds[1])} against ${name(e.builds[0])}`,
    `  shared prefix: ${formatBytes(e.bytes)} of ${formatBytes(e.totalBytes)} ` +
    `(${pct(e.bytes, e.totalBytes)}), ${formatCount(e.tokens)} of ${formatCount(e.totalTokens)} ${
      options.tokenizer ?? "o200k"
    } tokens ` +
    `(${pct(e.tokens, e.totalTokens)})`,
  ];
  if (e.ended) {
    const where = e.ended.file
      ? `section ${e.ended.section}, file ${e.ended.file}`
      : `section ${e.ended.section}`;
    const what = e.ended.kind === "changed"
      ? (e.ended.at !== undefined
        ? `its content changed ${formatCount(e.ended.at)} bytes into the block`
        : "its content changed and it moved later")
      : e.ended.kind === "added"
      ? "it is new"
      : e.ended.kind === "removed"
      ? "it was removed"
      : "it moved";
    const now = e.ended.now ? `; "${e.ended.now}" now sits there` : "";
    lines.push(`  ended by: "${e.ended.id}" (${where}): ${what}${now}`);
  } else {
    lines.push(
      e.bytes === e.totalBytes ? "  the documents are identical or the newer one is a prefix" : "",
    );
  }
  if (e.formats) {
    lines.push(
      `  formats differ: ${name(e.builds[0])} is ${e.formats[0]}, ${name(e.builds[1])} is ` +
        `${e.formats[1]} (each format has its own bytes, so they share no cache)`,
    );
  }
  lines.push(`  stable prefix: ${e.stablePrefixSame ? "unchanged" : "changed"}`);
  return lines.filter(Boolean).join("\n");
}
