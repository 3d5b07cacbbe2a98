/**
 * What fits in one reply of `slop mcp`. Claude Code refuses a tool result of more than 25,000
 * tokens, counted with Anthropic's tokenizer, which cuts code into about 1.2 to 1.3 tokens for
 * each o200k token slop counts (bench/README.md, "MCP replies in Claude tokens"). A reply is
 * every text it sends (the summary, the document or files, the data as JSON), so the limit holds
 * for them together, and a document too long for one reply is read as a resource in parts.
 *
 * @module
 */

import { countTexts } from "../pipeline/count.ts";
import { sha256Hex } from "../pipeline/helpers.ts";

/** The URIs of the resources: the latest document (part 1 when it is long) and its manifest. */
export const RESOURCES = {
  document: "slop://latest/document",
  manifest: "slop://latest/manifest",
};

/**
 * The URI of a part of a resource, from 1.
 *
 * @example
 * ```ts
 * import { partUri } from "./_mcp_reply.ts";
 * partUri("document", 2); // "slop://latest/document/2"
 * ```
 */
export function partUri(kind: keyof typeof RESOURCES, part: number): string {
  return `${RESOURCES[kind]}/${part}`;
}

/**
 * A reply's tokens (o200k) at most, by default: the whole of it, not only the document in it.
 * 18,000 × 1.3 = 23,400 Claude tokens, under Claude Code's 25,000 with room to spare.
 */
export const REPLY_TOKENS = 18_000;

/**
 * The o200k tokens of a reply's texts, as a client sees them: one after the other.
 *
 * @example
 * ```ts
 * import { replyTokens } from "./_mcp_reply.ts";
 * await replyTokens(["hello", "world"]); // 2
 * ```
 */
export async function replyTokens(texts: string[]): Promise<number> {
  const counts = await countTexts(texts, { workers: 1 });
  return counts.reduce((sum, n) => sum + n, 0);
}

/**
 * A document cut into parts of at most `limit` tokens each (o200k), at line ends: the parts
 * joined give the document back byte for byte. A line longer than `limit` (a minified file) is
 * cut by characters. One part when the document fits.
 *
 * @example
 * ```ts
 * import { documentParts } from "./_mcp_reply.ts";
 * (await documentParts("a\nb\n", 1)).length; // 2
 * ```
 */
export async function documentParts(document: string, limit: number): Promise<string[]> {
  const parts: string[] = [];
  let part = "";
  let used = 0;
  for (const [text, tokens] of await pieces(document, limit)) {
    if (part && used + tokens > limit) {
      parts.push(part);
      part = "";
      used = 0;
    }
    part += text;
    used += tokens;
  }
  if (part || !parts.length) parts.push(part);
  return parts;
}

/** {@linkcode documentParts} that remembers its last cut; see {@linkcode partCutter}. */
export interface PartCutter {
  /** The parts of `text` of at most `limit` tokens each, as {@linkcode documentParts} gives. */
  parts(text: string, limit: number): Promise<string[]>;
  /** How many times a text was cut (its lines counted); a text cut before is not. */
  cuts: number;
}

/**
 * A {@linkcode documentParts} that keeps where the last text it cut was cut (the parts' ends, with
 * the text's sha256 and the limit): an agent reading a long document part after part has it cut
 * once, where each part's read counted every line of the document again (minutes a part on a
 * document of megabytes).
 *
 * @example
 * ```ts
 * import { partCutter } from "./_mcp_reply.ts";
 * const cutter = partCutter();
 * await cutter.parts("a\nb\n", 1);
 * (await cutter.parts("a\nb\n", 1)).length; // 2
 * cutter.cuts; // 1
 * ```
 */
export function partCutter(): PartCutter {
  // The cut under way or done: reads at once (resource reads are not queued) wait on one cut.
  let last: { key: string; ends: Promise<number[]> } | undefined;
  const cutter: PartCutter = {
    cuts: 0,
    async parts(text, limit) {
      const key = `${limit} ${sha256Hex(text)}`;
      if (last?.key !== key) {
        cutter.cuts++;
        let end = 0;
        const ends = documentParts(text, limit).then((parts) =>
          parts.map((part) => end += part.length)
        );
        const cut = { key, ends };
        last = cut;
        // A cut that failed is not kept: the next read cuts again.
        ends.catch(() => last === cut && (last = undefined));
      }
      const ends = await last.ends;
      return ends.map((end, i) => text.slice(i ? ends[i - 1] : 0, end));
    },
  };
  return cutter;
}

/**
 * The document's lines with their tokens; a line of more than `limit` tokens comes as pieces of
 * `limit / 4` characters (a character is at most 3 tokens), never splitting a surrogate pair.
 */
async function pieces(document: string, limit: number): Promise<Array<[string, number]>> {
  const lines = document.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const counts = await countTexts(lines, { workers: 1 });
  const out: Array<[string, number]> = [];
  for (const [i, line] of lines.entries()) {
    if (counts[i] <= limit) {
      out.push([line, counts[i]]);
      continue;
    }
    const size = Math.max(2, Math.floor(limit / 4));
    const cuts: string[] = [];
    for (let at = 0; at < line.length;) {
      let end = Math.min(at + size, line.length);
      const code = line.charCodeAt(end - 1);
      if (end < line.length && code >= 0xd800 && code <= 0xdbff) end--;
      cuts.push(line.slice(at, end));
      at = end;
    }
    const cutCounts = await countTexts(cuts, { workers: 1 });
    cuts.forEach((cut, j) => out.push([cut, cutCounts[j]]));
  }
  return out;
}
