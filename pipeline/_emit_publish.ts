/**
 * Publishing a build: the document linked whole under the next free number
 * (`_emit_numbers.ts`), then its manifest written atomically, so that no half-written file is
 * ever seen and nothing is overwritten; and the errors of an output folder that takes no writes.
 * A part of `emit.ts`, which re-exports it.
 *
 * @module
 */

import { unwritableReason } from "./_state_write.ts";
import { join, relative, sep, shownPath } from "./_path.ts";
import type { Manifest } from "./types.ts";
import { fileStamp, removeQuietly, writeAtomicPiecesSync, writeAtomicSync } from "./helpers.ts";
import { writeJsonAtomicSync } from "./_json_stream.ts";
import type { StreamedDocument } from "./document.ts";
import {
  createNew,
  nextNumber,
  numberTaken,
  outputName,
  sweepStale,
  writeMark,
} from "./_emit_numbers.ts";

const encoder = new TextEncoder();

/** Where {@linkcode publish} puts a build's outputs, and what their manifest says. */
export interface PublishTarget {
  /** The output folder (made when missing). */
  dir: string;
  /** The outputs' name before their number: `{namespace}_{NNN}.md`. */
  namespace: string;
  /** The manifest, given the document's path relative to `root` (`/` separators). */
  manifestFor(outputPath: string): Manifest;
  /** The folder the manifest's `output` path is relative to (the project's root). */
  root: string;
}

/** Options of {@linkcode publish}. */
export interface PublishOptions {
  /** Document file extension (`md`, `xml`, `doc.json`). @default {"md"} */
  ext?: string;
  /**
   * The JSON of the manifest `manifestFor` gives, as `JSON.stringify(manifest, null, 2)` gave it
   * before the output's path was known: the path is put into it (`manifestJsonWithOutput`)
   * rather than the manifest serialized again; or that JSON's pieces in order (the first holds
   * the version's line), written one after another, never joined. @default {undefined} the
   * manifest is serialized
   */
  manifestJson?: string | string[];
  /**
   * The document as written ahead to a hidden temp file of the output folder (a speed layer's,
   * `accel/patch_write.ts`): linked as it is while it is exactly that file, else `document` is
   * written. @default {undefined} `document` is written
   */
  ahead?: WrittenAhead;
}

/** A document written ahead to a hidden temp file in the output folder (`accel/patch_write.ts`). */
export interface WrittenAhead {
  /** The temp file. */
  path: string;
  /** Its inode, size, modification and change time when written (`fileStamp()`). */
  stamp: string;
  /** The output folder, when it was made for it (removed with it, while empty). */
  madeDir?: string;
}

/**
 * A new hidden temp file's path in the output folder, where a document is written before
 * {@linkcode publish} links it under its number.
 *
 * @example
 * ```ts
 * import { tempDocumentPath } from "./emit.ts";
 * tempDocumentPath({ dir: "out", namespace: "context" }).startsWith("out/.context."); // true
 * ```
 */
export function tempDocumentPath(
  { dir, namespace }: Pick<PublishTarget, "dir" | "namespace">,
): string {
  return join(dir, `.${namespace}.${Deno.pid}.${crypto.randomUUID()}.tmp`);
}

/** Write `document` to a new hidden temp file in `dir`. */
async function writeTemp(
  document: string | Uint8Array | Uint8Array[] | StreamedDocument,
  to: Pick<PublishTarget, "dir" | "namespace">,
): Promise<string> {
  const tmp = tempDocumentPath(to);
  try {
    await writeDocument(tmp, document);
  } catch (error) {
    removeQuietly(tmp);
    throw error;
  }
  return tmp;
}

/**
 * A manifest's JSON (`JSON.stringify(manifest, null, 2)` of a manifest
 * without `output`) with `"output"` after `"version"`, as `JSON.stringify`
 * gives the manifest that has it, and a final newline: a build serializes its
 * manifest before it knows its output number (a build prepared ahead only
 * writes when asked). `undefined` when `json` is not laid out so.
 *
 * @example
 * ```ts
 * import { manifestJsonWithOutput } from "./emit.ts";
 * manifestJsonWithOutput('{\n  "version": 1,\n  "files": []\n}', "out/c.md");
 * // '{\n  "version": 1,\n  "output": "out/c.md",\n  "files": []\n}\n'
 * ```
 */
export function manifestJsonWithOutput(json: string, output: string): string | undefined {
  const head = '{\n  "version": ';
  const at = json.indexOf("\n", head.length) + 1;
  if (!json.startsWith(head) || at === 0 || json[at - 2] !== ",") return undefined;
  return `${json.slice(0, at)}  "output": ${JSON.stringify(output)},\n${json.slice(at)}\n`;
}

/** `pieces` with `head` in place of the first, and the final newline after the last. */
function* withHead(pieces: string[], head: string): Generator<string> {
  yield head;
  for (let i = 1; i < pieces.length; i++) yield pieces[i];
  yield "\n";
}

/** Where a build was published. */
export interface Published {
  /** The output number. */
  number: number;
  /** Absolute path of the document. */
  document: string;
  /** Absolute path of the manifest. */
  manifest: string;
}

/** What the command line can do about an output folder that takes no writes. */
const WRITE_HINT =
  ": print the document with --stdout, or pass --state-dir to a folder you can write";

/**
 * An output folder that could not be made or takes no writes (read-only, full, another user's).
 * Its message says what to do on the command line; `problem` is the message without that, for a
 * caller that says what to do where it is (an MCP server's reply).
 */
export class OutputFolderError extends Error {
  /** The message without what to do: `Cannot write to the output folder "…": reason`. */
  readonly problem: string;
  /**
   * @param problem What went wrong, naming the folder.
   * @param hint What to do, after a colon (the default: `--stdout` or `--state-dir`).
   */
  constructor(problem: string, hint: string = WRITE_HINT) {
    super(problem + hint);
    this.name = "OutputFolderError";
    this.problem = problem;
  }
}

/**
 * The error of a write into `dir` that the file system refused, naming the folder, without
 * Deno's error code and call; undefined for any other error.
 */
function unwritableOutput(dir: string, doing: string, error: unknown): Error | undefined {
  if (error instanceof OutputFolderError || !unwritableReason(error)) return undefined;
  const reason = (error as Error).message.replace(/ \(os error \d+\).*$/s, "").replace(
    /: \w+ '.*'$/s,
    "",
  );
  return new OutputFolderError(
    `Cannot ${doing} the output folder "${shownPath(dir)}": ${reason}`,
  );
}

/** Create the output folder; an error names it, without Deno's error code and call. */
function makeOutputFolder(dir: string): void {
  try {
    Deno.mkdirSync(dir, { recursive: true });
  } catch (error) {
    const unwritable = unwritableOutput(dir, "create", error);
    if (unwritable) throw unwritable;
    // Deno's message ends with the error code and the call: the message names the folder.
    const reason = error instanceof Error
      ? error.message.replace(/ \(os error \d+\)(: mkdir '.*')?$/, "").replace(/: mkdir '.*'$/, "")
      : error;
    throw new Error(
      `Cannot create the output folder "${shownPath(dir)}": ${reason}`,
    );
  }
}

/**
 * Publish the document and manifest under the next free number. The number
 * is claimed by creating a hidden `.{namespace}_{NNN}.claim` file exclusively
 * (shared by every format), checked free of outputs once held, and the
 * document is published with `link()` (which fails when the name exists), so
 * two builds at once never share a number, whatever their formats, and nothing
 * is ever overwritten. The document appears whole (linked from a complete temp
 * file); its manifest is written after it, atomically, so a reader that looks
 * for manifests (as `slop stats` does) only sees complete outputs. A high-water
 * mark keeps numbers from being reused after deletions.
 *
 * @example
 * ```ts
 * import { publish } from "./emit.ts";
 * const dir = await Deno.makeTempDir();
 * const manifestFor = (output: string) => ({ output }) as never;
 * const { document } = await publish("# doc\n", { dir, namespace: "context", manifestFor, root: dir });
 * ```
 */
export async function publish(
  document: string | Uint8Array | Uint8Array[] | StreamedDocument,
  target: PublishTarget,
  options: PublishOptions = {},
): Promise<Published> {
  makeOutputFolder(target.dir);
  try {
    return await publishInto(document, target, options);
  } catch (error) {
    // A folder that exists but takes no writes (read-only, full): named as one that cannot be made.
    throw unwritableOutput(target.dir, "write to", error) ?? error;
  }
}

/** {@linkcode publish}, into an output folder that exists. */
async function publishInto(
  document: string | Uint8Array | Uint8Array[] | StreamedDocument,
  { dir, namespace, manifestFor, root }: PublishTarget,
  options: PublishOptions,
): Promise<Published> {
  const ext = options.ext ?? "md";
  // The file operations up to the link are synchronous: each is much shorter than the task turn
  // an awaited one waits for (bench/README.md, "Numbers behind code choices").
  const ahead = options.ahead;
  const written = ahead && fileStamp(ahead.path) === ahead.stamp;
  if (ahead && !written) removeQuietly(ahead.path);
  const tmp = written ? ahead.path : await writeTemp(document, { dir, namespace });
  sweepStale(dir, namespace);
  let n = nextNumber(dir, namespace);
  let docPath: string;
  let claim: string;
  try {
    for (;; n++) {
      // The claim is shared by every format, so an .md and an .xml build never share a number.
      claim = join(dir, `.${outputName(namespace, n, "claim")}`);
      if (!createNew(claim)) continue;
      if (numberTaken(dir, namespace, n)) {
        removeQuietly(claim);
        continue;
      }
      docPath = join(dir, outputName(namespace, n, ext));
      try {
        Deno.linkSync(tmp, docPath);
        break;
      } catch (error) {
        removeQuietly(claim);
        if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
      }
    }
  } finally {
    removeQuietly(tmp);
  }
  const manifestPath = join(dir, outputName(namespace, n, "json"));
  try {
    const outputPath = relative(root, docPath).split(sep).join("/");
    const manifest = manifestFor(outputPath);
    writeMark(dir, namespace, n);
    const json = options.manifestJson;
    const head = typeof json === "string" ? json : json?.[0];
    const text = head === undefined ? undefined : manifestJsonWithOutput(head, outputPath);
    // Else written in pieces: a big tree's manifest is never one string (about 500 bytes a file).
    if (text === undefined) writeJsonAtomicSync(manifestPath, manifest);
    else if (typeof json === "string") writeAtomicSync(manifestPath, text);
    else writeAtomicPiecesSync(manifestPath, withHead(json!, text.slice(0, -1)));
  } catch (error) {
    // A full or read-only disk: a document without its manifest would be an output no one made.
    removeQuietly(docPath);
    throw error;
  } finally {
    removeQuietly(claim);
  }
  return { number: n, document: docPath, manifest: manifestPath };
}

/**
 * Write a document given whole or as parts: the parts are never joined; they
 * gather in a 1 MB buffer, written synchronously when full (one system call
 * each, not one per block).
 *
 * @example
 * ```ts
 * import { writeDocument } from "./emit.ts";
 * await writeDocument(await Deno.makeTempFile(), ["# a\n", "b\n"].map((t) => new TextEncoder().encode(t)));
 * ```
 */
export async function writeDocument(
  path: string,
  document: string | Uint8Array | Uint8Array[] | StreamedDocument,
): Promise<void> {
  if (typeof document === "string") document = encoder.encode(document);
  if (document instanceof Uint8Array) return await Deno.writeFile(path, document);
  using file = Deno.openSync(path, { write: true, create: true, truncate: true });
  const buffer = new Uint8Array(1 << 20);
  let used = 0;
  const write = (bytes: Uint8Array) => {
    for (let at = 0; at < bytes.length;) at += file.writeSync(bytes.subarray(at));
  };
  // A streamed document's pieces are views of one buffer: each is copied or written before the next.
  for (const part of Array.isArray(document) ? document : document.pieces()) {
    if (used + part.length > buffer.length) {
      write(buffer.subarray(0, used));
      used = 0;
    }
    if (part.length > buffer.length) write(part);
    else {
      buffer.set(part, used);
      used += part.length;
    }
  }
  write(buffer.subarray(0, used));
}
