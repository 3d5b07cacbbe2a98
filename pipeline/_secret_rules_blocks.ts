/**
 * The rules for secrets that span lines (`secret_rules.ts` is the public face): PEM private key
 * blocks, also in base64, and the data of a Kubernetes Secret.
 *
 * @module
 */

/** Longest block between `-----BEGIN … PRIVATE KEY-----` and its END line that is redacted whole. */
const MAX_PEM = 64 * 1024;
export const PEM_BEGIN: RegExp =
  /-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----|---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----/g;
export const PEM_END: RegExp =
  /-----END[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----|---- END SSH2 ENCRYPTED PRIVATE KEY ----/g;
/**
 * A body without an END line: lines of 16-80 base64 characters, each after a newline (or its
 * escape), blanks, the quotes and `+` of a literal; prose after it stays.
 */
export const PEM_BODY: RegExp = /(?:(?:\\[nr]|[\s"',+]){1,16}[A-Za-z0-9+/=]{16,80}){0,1024}/y;

/**
 * A run of base64 as a key's lines have (64 characters a line; 40 or more in the shortest keys
 * and in a key cut short in docs).
 */
const KEY_LINE = /[A-Za-z0-9+/]{40}/g;
/** A call of code (`encodeBase64Lines(`): never in a key's lines, nor in the literals around them. */
const CALL = /\w\(/g;

/** The index of `pattern`'s first match at or after `from`; -1: none. */
function firstAt(pattern: RegExp, text: string, from: number): number {
  pattern.lastIndex = from;
  return pattern.exec(text)?.index ?? -1;
}

/**
 * PEM private key blocks, BEGIN line to END line, whatever lies between
 * (newlines, the `\n` escapes of a JSON string, a YAML block's indent, the
 * quotes of a concatenated literal), unless it is code around no key: a call
 * and no key's line (`append("-----BEGIN PRIVATE KEY-----\n")`, then
 * `encodeBase64Lines(…)`, then the END line's `append`). Each character is
 * read at most four times: the END, the key's line and the call found for one
 * BEGIN serve every BEGIN before them.
 */
export function findPem(text: string): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  // -2: not searched yet; -1: none after the last search point (the same for `line` and `call`,
  // where the first key's line and the first call after it start)
  let end = -2;
  let endAt = 0;
  let line = -2;
  let call = -2;
  let from = 0;
  PEM_BEGIN.lastIndex = 0;
  for (let m = PEM_BEGIN.exec(text); m; m = PEM_BEGIN.exec(text)) {
    const start = m.index;
    if (start < from) continue;
    const after = start + m[0].length;
    if (end === -2 || (end >= 0 && end < after)) {
      PEM_END.lastIndex = after;
      const e = PEM_END.exec(text);
      end = e ? e.index : -1;
      endAt = e ? e.index + e[0].length : 0;
    }
    if (end >= 0) {
      if (call === -2 || (call >= 0 && call < after)) call = firstAt(CALL, text, after);
      if (line === -2 || (line >= 0 && line < after)) line = firstAt(KEY_LINE, text, after);
      const code = call >= 0 && call < end && !(line >= 0 && line < end);
      if (code) continue;
    }
    if (end >= 0 && end - after <= MAX_PEM) {
      out.push({ start, end: endAt });
      from = endAt;
      PEM_BEGIN.lastIndex = endAt;
      continue;
    }
    // No END line (a cut block): the BEGIN line and the body that follows it.
    PEM_BODY.lastIndex = after;
    const body = PEM_BODY.exec(text)![0];
    const stop = after + body.trimEnd().length;
    out.push({ start, end: stop });
    from = stop;
    PEM_BEGIN.lastIndex = Math.max(stop, after);
  }
  return out;
}

/**
 * A PEM private key in base64 (`LS0tLS1CRUdJTi…`: a Kubernetes Secret's `tls.key`, a CI variable):
 * its start (its shape's `run` reads the rest) when it decodes to a `-----BEGIN … PRIVATE KEY-----`
 * line.
 */
export const BASE64_PEM: RegExp = /(?<![A-Za-z0-9+/])LS0tLS1CRUdJTi[A-Za-z0-9+/]{50,4096}/g;

export function isBase64PrivateKey(value: string): boolean {
  try {
    return /^-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY/.test(atob(value.slice(0, 80)));
  } catch {
    return false;
  }
}

/** A YAML document that is a Kubernetes Secret: its `kind: Secret` line. */
export const K8S_SECRET_KIND: RegExp = /^kind:[ \t]{0,16}["']?Secret["']?[ \t]{0,16}\r?$/m;
/** Where a document ends: a `---` line. */
export const YAML_DOCUMENT_END: RegExp = /^---[ \t]{0,16}\r?$/gm;
/** A `data:` or `stringData:` key of a Secret (group 1: its indent). */
export const K8S_DATA: RegExp = /^([ \t]{0,64})(?:data|stringData):[ \t]{0,16}\r?$/gm;
/** An entry of a Secret's data: indent, key, then its value (group `v`). */
export const K8S_ENTRY: RegExp =
  /^([ \t]{0,64})[^\s:#][^:\r\n]{0,252}:[ \t]{1,16}(?<v>[^\r\n]{1,65536})/my;
/**
 * The opening of a JSON Secret's `data` object (kubectl -o json); its body is read by
 * {@linkcode jsonObjectBody}. A string may hold braces (`"{{ b64enc .Values.key }}"`): read as
 * `[^{}]`, one such value left every value of the object unread.
 */
export const K8S_JSON_DATA: RegExp = /"(?:data|stringData)"[ \t]{0,16}:[ \t]{0,16}\{/g;

/**
 * Every value of a Kubernetes Secret's `data` and `stringData` (YAML, each document on its own,
 * or JSON): base64 or plain, each is a secret whatever its name (`DATABASE_URL: cG9zdGdyZXM6…`).
 * A block scalar's lines (`key: |`) are redacted whole.
 */
export function findK8sSecretData(text: string): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  // Document by document, each read once.
  for (let from = 0;;) {
    YAML_DOCUMENT_END.lastIndex = from;
    const end = YAML_DOCUMENT_END.exec(text);
    const doc = text.slice(from, end ? end.index : text.length);
    if (K8S_SECRET_KIND.test(doc)) {
      for (const span of k8sYamlData(doc)) {
        out.push({ start: span.start + from, end: span.end + from });
      }
    }
    if (!end) break;
    from = end.index + end[0].length;
  }
  if (!/"kind"[ \t]{0,16}:[ \t]{0,16}"Secret"/.test(text)) return out;
  K8S_JSON_DATA.lastIndex = 0;
  for (const m of text.matchAll(K8S_JSON_DATA)) {
    const at = m.index! + m[0].length;
    const body = jsonObjectBody(text, at);
    if (body === undefined) continue;
    for (
      const v of body.matchAll(
        /"[^"\\\r\n]{1,253}"[ \t]{0,16}:[ \t]{0,16}"(?<v>[^"\\\r\n]{1,65536})"/g,
      )
    ) {
      const start = at + v.index! + v[0].length - 1 - v.groups!.v.length;
      if (!isTemplateReference(v.groups!.v)) out.push({ start, end: start + v.groups!.v.length });
    }
  }
  return out;
}

/**
 * The body of the JSON object that opens just before `at`, up to its closing `}` (strings, with
 * their escapes and braces, read over), when it closes within 65,536 characters with no object
 * nested in it; else undefined.
 */
function jsonObjectBody(text: string, at: number): string | undefined {
  const stop = Math.min(text.length, at + 65_536);
  for (let i = at; i < stop; i++) {
    const c = text[i];
    if (c === "}") return text.slice(at, i);
    if (c === "{") return undefined;
    if (c !== '"') continue;
    for (i++; i < stop && text[i] !== '"' && text[i] !== "\n"; i++) if (text[i] === "\\") i++;
  }
  return undefined;
}

/**
 * Whether a Secret's value is wholly a template's reference, not a value: Helm's (Go's)
 * `{{ b64enc .Values.tls.key }}`, an environment variable `${DB_PASSWORD}`, quoted or not. A
 * chart's Secret templates hold these; redacting them lost the chart's logic.
 */
function isTemplateReference(value: string): boolean {
  const bare = value.trim().replace(/^(["'])(.*)\1$/, "$2");
  return /^\{\{[^\n]*\}\}$/.test(bare) && bare.indexOf("}}") === bare.length - 2 ||
    /^\$\{[A-Za-z_][\w.-]{0,127}\}$/.test(bare);
}

/**
 * Whether a Secret's block scalar is a template's text with no value of its own: each line a
 * template's action (`{{- if .Values.mysql.pass }}`), a section (`[client]`) or a key given a
 * template's reference (`password={{ .Values.mysql.pass }}`), as a chart's Secret template writes a
 * client's config file.
 */
function templateBlock(block: string): boolean {
  const lines = block.split("\n").map((line) => line.trim()).filter(Boolean);
  return lines.length > 0 &&
    lines.every((line) =>
      isTemplateReference(line) || /^\[[\w .-]{1,64}\]$/.test(line) ||
      TEMPLATE_ENTRY.test(line) && isTemplateReference(line.replace(TEMPLATE_ENTRY_KEY, ""))
    );
}
/** A key and its `=` or `:` at a line's start, then a template's expression. */
const TEMPLATE_ENTRY = /^[\w.-]{1,64}[ \t]{0,16}[=:][ \t]{0,16}\{\{/;
const TEMPLATE_ENTRY_KEY = /^[\w.-]{1,64}[ \t]{0,16}[=:]/;

/** The values under each `data:` / `stringData:` of one YAML Secret document. */
function k8sYamlData(doc: string): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  K8S_DATA.lastIndex = 0;
  for (const m of doc.matchAll(K8S_DATA)) {
    const indent = m[1].length;
    let at = m.index! + m[0].length + 1;
    // Each entry is one line deeper than `data:`; a block scalar's lines deeper still.
    while (at < doc.length) {
      K8S_ENTRY.lastIndex = at;
      const e = K8S_ENTRY.exec(doc);
      if (!e || e[1].length <= indent) break;
      const valueAt = at + e[0].length - e.groups!.v.length;
      let end = at + e[0].length;
      const nextLine = () => doc.indexOf("\n", end) < 0 ? doc.length : doc.indexOf("\n", end);
      if (/^[|>]/.test(e.groups!.v)) {
        // The block's lines: those indented deeper than its key.
        for (let line = end + 1; line < doc.length;) {
          const lineEnd = doc.indexOf("\n", line) < 0 ? doc.length : doc.indexOf("\n", line);
          const text = doc.slice(line, lineEnd);
          if (text.trim() && text.search(/\S/) <= e[1].length) break;
          end = lineEnd;
          line = lineEnd + 1;
        }
        const first = doc.indexOf("\n", valueAt) + 1;
        const block = doc.slice(first, end);
        if (!templateBlock(block)) out.push({ start: first + block.search(/\S|$/), end });
      } else {
        // the whole line (a value longer than the entry's pattern reads is not cut short)
        end = valueAt + doc.slice(valueAt, nextLine()).replace(/\r$/, "").length;
        if (!isTemplateReference(doc.slice(valueAt, end))) out.push({ start: valueAt, end });
      }
      at = nextLine() + 1;
    }
  }
  return out;
}

/**
 * A map of encoded values in YAML: `data:` or `binaryData:`, a list item's (`- data:`) too, a
 * comment after it (group 1: its indent).
 */
const ENCODED_MAP =
  /^([ \t]{0,64}(?:-[ \t]{1,8})?)(?:data|binaryData):[ \t]{0,16}(?:#[^\n]{0,65536})?\r?$/gm;
/** A value of base64 alone, 16+ characters (a block scalar's first line, or one on its key's line). */
const BASE64_LINE = /^[A-Za-z0-9+/]{16,}={0,2}$/;
/** A later line of a block scalar's base64: any length (the last is often short). */
const BASE64_MORE = /^[A-Za-z0-9+/]{1,}={0,2}$/;

/**
 * A block scalar's base64 from the line at `from` on: its lines deeper than its key (`indent`),
 * each base64 alone (the first by `first`, 16 characters or more unless told), joined; where it
 * starts and ends, or undefined when its first line is none.
 */
function blockScalarBase64(
  text: string,
  from: number,
  { indent, first = BASE64_LINE }: { indent: number; first?: RegExp },
): { start: number; end: number; encoded: string } | undefined {
  const parts: string[] = [];
  let start = -1;
  let end = from;
  for (let line = from; line < text.length;) {
    const lineEnd = text.indexOf("\n", line) < 0 ? text.length : text.indexOf("\n", line);
    const row = text.slice(line, lineEnd).trim();
    if (!row || text.slice(line, lineEnd).search(/\S/) <= indent) break;
    if (!(parts.length ? BASE64_MORE : first).test(row)) break;
    if (start < 0) start = line + text.slice(line, lineEnd).search(/\S/);
    parts.push(row);
    end = line + text.slice(line, lineEnd).trimEnd().length;
    line = lineEnd + 1;
  }
  return start < 0 ? undefined : { start, end, encoded: parts.join("") };
}

/** A JSON object's `"data"` or `"binaryData"` member, up to its `{`. */
const JSON_ENCODED_MAP = /"(?:data|binaryData)"[ \t]{0,16}:[ \t]{0,16}\{/g;
/** A JSON string member (`"key": "value"`): the key, group `k`; the value, group `v`. */
const JSON_MEMBER = /"(?<k>[^"\\\r\n]{1,253})"\s{0,64}:\s{0,64}"(?<v>[^"\\\r\n]{1,65536})"/dg;

/**
 * The base64 values of each JSON `"data"` or `"binaryData"` object (a ConfigMap's or a Secret's
 * written as JSON), with their keys: what {@linkcode encodedEntries} gives for YAML.
 *
 * @example
 * ```ts
 * import { jsonEncodedEntries } from "./_secret_rules_blocks.ts";
 * jsonEncodedEntries('{"data": {"app.env": "QVBJX0tFWT0xMjM0NTY3ODkwYWJjZGVm"}}')[0].key; // "app.env"
 * ```
 */
export function jsonEncodedEntries(
  text: string,
): Array<{ start: number; end: number; key: string; encoded: string }> {
  const out: Array<{ start: number; end: number; key: string; encoded: string }> = [];
  JSON_ENCODED_MAP.lastIndex = 0;
  for (const m of text.matchAll(JSON_ENCODED_MAP)) {
    const at = m.index! + m[0].length;
    const body = jsonObjectBody(text, at);
    if (body === undefined) continue;
    JSON_MEMBER.lastIndex = 0;
    for (const e of body.matchAll(JSON_MEMBER)) {
      if (!BASE64_LINE.test(e.groups!.v)) continue;
      const [start, end] = e.indices!.groups!.v!;
      out.push({ start: at + start, end: at + end, key: e.groups!.k, encoded: e.groups!.v });
    }
  }
  return out;
}

/**
 * The base64 values of each YAML `data:` or `binaryData:` map (a ConfigMap's, a Helm values
 * file's, a Secret's written without its `kind`), each with its key and its base64 (a block
 * scalar's lines joined): what a rule decodes to read what they hold.
 *
 * @example
 * ```ts
 * import { encodedEntries } from "./_secret_rules_blocks.ts";
 * encodedEntries("data:\n  app.env: QVBJX0tFWT0xMjM0NTY3ODkwYWJjZGVm\n")[0].key; // "app.env"
 * ```
 */
export function encodedEntries(
  text: string,
): Array<{ start: number; end: number; key: string; encoded: string }> {
  const out: Array<{ start: number; end: number; key: string; encoded: string }> = [];
  ENCODED_MAP.lastIndex = 0;
  // A map inside one read already is skipped: its entries were read as the outer map's (64 maps
  // nested, `data:` lines each an entry too, read and decoded the innermost value 64 times)
  let read = 0;
  for (const m of text.matchAll(ENCODED_MAP)) {
    if (m.index! < read) continue;
    const indent = m[1].length;
    let at = m.index! + m[0].length + 1;
    while (at < text.length) {
      K8S_ENTRY.lastIndex = at;
      const e = K8S_ENTRY.exec(text);
      if (!e || e[1].length <= indent) break;
      const key = e[0].slice(e[1].length, e[0].indexOf(":", e[1].length)).trim();
      const value = e.groups!.v.trimEnd();
      const valueAt = at + e[0].length - e.groups!.v.length;
      let end = at + e[0].length;
      if (/^[|>][-+]?$/.test(value)) {
        const block = blockScalarBase64(text, end + 1, { indent: e[1].length });
        if (block) {
          end = block.end;
          out.push({ ...block, key });
        }
      } else {
        // the whole line (a value longer than the entry's pattern reads is not cut short)
        end = text.indexOf("\n", valueAt) < 0 ? text.length : text.indexOf("\n", valueAt);
        const whole = text.slice(valueAt, end).trimEnd();
        const bare = whole.replace(/^(["'])(.*)\1$/, "$2");
        if (BASE64_LINE.test(bare)) {
          const start = valueAt + whole.indexOf(bare);
          const parts = [bare];
          end = start + bare.length;
          // a plain value's later lines, deeper than its key (YAML folds them into one value),
          // read as a block scalar's later lines are
          const more = bare === whole
            ? blockScalarBase64(text, end + 1, { indent: e[1].length, first: BASE64_MORE })
            : undefined;
          if (more) {
            parts.push(more.encoded);
            end = more.end;
          }
          out.push({ start, end, key, encoded: parts.join("") });
        }
      }
      const next = text.indexOf("\n", end);
      if (next < 0) break;
      at = next + 1;
    }
    read = at;
  }
  return out;
}
