// A token known by its start, written split: its marks escaped (a JSON string's `\/`, as PHP
// writes every `/`, and `\u002d`; C's and Python's `\x2d`; a URL's `%2F`, `%3A`) or wrapped over
// two lines. The rules read such a token up to the escape or the line end, and what came after
// was left (a Discord webhook in PHP's JSON was not found at all). The tokens are made here from
// each rule's own pattern: no real token is written in this repository.
import assert from "node:assert/strict";
import { redactSync } from "../../pipeline/_scan.ts";
import { SECRET_SHAPES, textHints } from "../../pipeline/secret_rules.ts";
import { tokenOf as tokenFrom } from "./_token_sample.ts";
import { prng } from "../_helpers.ts";

const random = prng(41);

/** The table's entries of a token known by its start (see `token_limits_test.ts`). */
const TOKENS = SECRET_SHAPES.filter((s) =>
  s.pattern && s.hints.length && !s.pattern.source.includes("(?<v>") &&
  s.id !== "base64-private-key" && s.id !== "nuget-key" // (a PEM's armour; NuGet's options)
);

const tokenOf = (shape: (typeof TOKENS)[number]) => tokenFrom(shape, random);

const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(2, "0");

/** Ways of writing a token's marks (`-`, `_`, `/`, …) escaped, each mark of it so. */
const ESCAPES: Record<string, (token: string) => string> = {
  "JSON's \\/": (t) => t.replace(/\//g, "\\/"),
  "JSON's \\u00XX": (t) => t.replace(/[-_+/=.:]/g, (c) => `\\u00${hex(c)}`),
  "a string's \\xXX": (t) => t.replace(/[-_+/=.:]/g, (c) => `\\x${hex(c)}`),
  "a URL's %XX": (t) => t.replace(/[-_+/=.:]/g, (c) => `%${hex(c).toUpperCase()}`),
  "a URL's %xx": (t) => t.replace(/[-_+/=.:]/g, (c) => `%${hex(c)}`),
};

/** Places with no name that gives a token away. */
const PLACES: Array<(written: string) => string> = [
  (w) => `{"note": "${w}"}\n`,
  (w) => `2024-01-01 INFO using ${w} (rotated)\n`,
  (w) => `https://example.org/cb?state=${w}&x=1\n`,
];

/** The pieces of a token's letters and digits 12 long that `text` still holds (escapes read). */
function piecesLeft(token: string, text: string): string[] {
  const plain = (s: string) => s.replace(/\\u00[0-9a-f]{2}|\\x[0-9a-f]{2}|%[0-9A-Fa-f]{2}/g, "");
  const letters = (s: string) => plain(s).replace(/[^A-Za-z0-9]/g, "");
  const left = letters(text);
  const chars = letters(token);
  const out: string[] = [];
  for (let i = 0; i + 12 <= chars.length; i++) {
    if (left.includes(chars.slice(i, i + 12))) out.push(chars.slice(i, i + 12));
  }
  return out;
}

Deno.test("a prefixed token with its marks escaped (\\/, \\u002d, \\x2d, %2F) is redacted whole", () => {
  const leaks: string[] = [];
  for (const shape of TOKENS) {
    const token = tokenOf(shape);
    for (const [how, write] of Object.entries(ESCAPES)) {
      const written = write(token);
      if (written === token) continue;
      for (const place of PLACES) {
        const out = redactSync(place(written)).text;
        if (piecesLeft(token, out).length) leaks.push(`${shape.id} (${how}): ${out.trim()}`);
      }
    }
  }
  assert.deepEqual(leaks, []);
});

Deno.test("a Django key whose escaped marks stand between its other marks is redacted whole", () => {
  // (an escaped `-`, `_`, `+` or `=` was decoded only beside a letter or digit: `)&\u002d!` and
  // `^\u003d^` in a Django key, whose alphabet holds `!@#$%^&*()`, were left, the key with them)
  const leaks: string[] = [];
  const marks = "!@#$%^&*()";
  for (const [i, m] of [...marks].entries()) {
    const n = marks[(i + 3) % marks.length];
    const body = `k3${m}-${n}x9q${m}_${m}w7e${n}=${m}r2t${m}+${n}%r9-y5u1i8o4p6a0s3d7f2g`;
    const token = `django-insecure-${body}`;
    for (const [how, write] of Object.entries(ESCAPES)) {
      const written = write(token);
      if (written === token) continue;
      for (const place of PLACES) {
        const out = redactSync(place(written)).text;
        if (piecesLeft(token, out).length) leaks.push(`${m} (${how}): ${out.trim()}`);
      }
    }
  }
  assert.deepEqual(leaks, []);
});

Deno.test("a Discord webhook in PHP's JSON and a Slack webhook URL-encoded are found", () => {
  const discord = tokenOf(SECRET_SHAPES.find((s) => s.id === "discord-webhook")!);
  const slack = tokenOf(SECRET_SHAPES.find((s) => s.id === "slack-webhook")!);
  const php = `{"webhook":"${discord.replace(/\//g, "\\/")}"}\n`;
  assert.equal(redactSync(php).text, '{"webhook":"[REDACTED:discord]"}\n');
  const encoded = encodeURIComponent(slack);
  const url = `https://example.org/oauth?redirect=${encoded}&x=1\n`;
  assert.equal(redactSync(url).text, "https://example.org/oauth?redirect=[REDACTED:slack]&x=1\n");
});

/**
 * Tokens of the characters a wrap is read across (letters, digits, `-`, `_`, `+`, `/`, `.`, `$`,
 * `:`), with a digit: a token with `=` inside it (Atlassian's), other marks (Django's) or letters
 * alone (Hugging Face's organisations') is left when wrapped, and so is a Twilio SID.
 */
const WRAPPABLE = /^[A-Za-z0-9_+/.$:-]+={0,3}$/;
const WRAPPED = TOKENS.filter((s) => {
  const token = tokenOf(s);
  return WRAPPABLE.test(token) && /[0-9]/.test(token) && s.id !== "twilio-key";
});

Deno.test("a prefixed token wrapped over two lines is redacted on both", () => {
  assert.ok(WRAPPED.length >= 100, `${WRAPPED.length} rules`);
  const leaks: string[] = [];
  let wraps = 0;
  for (const shape of WRAPPED) {
    let token = tokenOf(shape);
    // (a sample of the characters the filter above read: a rule's pattern may make others, as
    // Teamwork's `=` inside)
    while (!/[0-9]/.test(token) || !WRAPPABLE.test(token)) token = tokenOf(shape);
    for (const at of [Math.ceil(token.length / 2), Math.min(40, token.length - 8)]) {
      // Read where the piece on the first line opens the token gate by itself (its prefix and
      // what the gate reads after it: a prefix that is a common word, `sk_`, needs its 32 hex
      // digits), and 8 characters at least are on the next line.
      const rest = token.slice(at).replace(/=+$/, "");
      if (at < 8 || rest.length < 8 || !textHints(token.slice(0, at)).families) continue;
      wraps++;
      for (const indent of ["", "    "]) {
        const wrapped = `${token.slice(0, at)}\n${indent}${token.slice(at)}`;
        for (const place of PLACES) {
          const out = redactSync(place(wrapped)).text;
          if (piecesLeft(token, out).length) leaks.push(`${shape.id} (at ${at}): ${out}`);
        }
      }
    }
  }
  assert.ok(wraps >= 150, `${wraps} wraps`);
  assert.deepEqual(leaks, []);
});

/**
 * The tokens whose gate reads more after their head than a run of one class (a UUID's pieces,
 * `…_…`, Asana's `…/…:…`): a wrap there still closes it (bench/README.md, secrets28).
 */
const MIXED_AHEAD = new Set([
  "asana-pat",
  "launchdarkly-sdk-key",
  "resend-key",
  "sourcegraph-token",
]);

Deno.test("a token wrapped inside what its gate reads after its head is redacted on both lines", () => {
  // (the gate of the prefixed tokens reads 8 of a token's characters after its head, Airtable's
  // its 64 hex digits after `pat….`: a wrap there closed it, and the token was left whole)
  const leaks: string[] = [];
  let wraps = 0;
  for (const shape of WRAPPED) {
    const token = tokenOf(shape);
    // the head as its literal spelling (`dop_v1_`), or Airtable's `pat` and 14 characters and `.`
    const head = shape.id === "airtable-token"
      ? 18
      : shape.hints.find((h) => token.startsWith(h) && /[-_.:/]$/.test(h))?.length;
    if (!head || !WRAPPABLE.test(token) || !/[0-9]/.test(token) || MIXED_AHEAD.has(shape.id)) {
      continue;
    }
    const last = shape.id === "airtable-token" ? token.length - 8 : head + 7;
    for (let at = Math.max(head, 8); at <= Math.min(last, token.length - 8); at++) {
      wraps++;
      const wrapped = `${token.slice(0, at)}\n    ${token.slice(at)}`;
      for (const place of PLACES) {
        const out = redactSync(place(wrapped)).text;
        if (piecesLeft(token, out).length) leaks.push(`${shape.id} (at ${at}): ${out}`);
      }
    }
  }
  assert.ok(wraps >= 400, `${wraps} wraps`);
  assert.deepEqual(leaks, []);
});

Deno.test("a PEM key in base64 wrapped at 76 characters, as base64 writes it, is redacted on every line", () => {
  // (a Kubernetes Secret's `tls.key` pasted from `base64 key.pem`: main redacted the first line)
  const body = Array.from(
    { length: 20 },
    () =>
      btoa(String.fromCharCode(...Array.from({ length: 48 }, () => Math.floor(random() * 256)))),
  ).join("\n");
  const pem = `-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----\n`;
  const wrapped = btoa(pem).replace(/(.{76})/g, "$1\n").trimEnd();
  for (const indent of ["", "    "]) {
    const text = `tls.key: |\n${indent}${wrapped.replaceAll("\n", `\n${indent}`)}\nnext: 1\n`;
    // (a marker on each line: the document keeps its lines)
    const markers = wrapped.split("\n").map(() => `${indent}[REDACTED:private-key]`).join("\n");
    assert.equal(redactSync(text).text, `tls.key: |\n${markers}\nnext: 1\n`);
  }
});

Deno.test("lines that are not a wrapped token are not joined", () => {
  // a value's line and the next setting, a paragraph's words, a name and a call
  const github = tokenOf(SECRET_SHAPES.find((s) => s.id === "github-token")!);
  const anthropic = tokenOf(SECRET_SHAPES.find((s) => s.id === "anthropic-key")!);
  const texts = [
    `TOKEN=${github}\nDEBUG=1\n`,
    `token: ${github}\nother: 1\n`,
    `see ${anthropic}\nrun(now)\n`,
    // trufflehog's test data: the next line's first word is no rest of the key
    `    API Key: ${anthropic}\n    Admin Key: x\n`,
    `-Access key Id: ${
      tokenOf(SECRET_SHAPES.find((s) => s.id === "aws-access-key-id")!)
    }\n-Secret Key\n`,
    `  1 aws ${tokenOf(SECRET_SHAPES.find((s) => s.id === "aws-access-key-id")!)}\n  2 secret\n`,
  ];
  for (const text of texts) {
    const out = redactSync(text).text;
    assert.equal(out.split("\n").length, text.split("\n").length, out);
    assert.ok(
      /\n(?:DEBUG=1|other: 1|run\(now\)| {4}Admin Key: x|-Secret Key| {2}2 secret)\n$/.test(out),
      out,
    );
  }
  const prose = "The configuration is documented\nelsewhere in this repository.\n";
  assert.equal(redactSync(prose).text, prose);
});

/**
 * The wrappable tokens whose head ends in a separator (`dop_v1_`, `hf_`), with that head's length:
 * the tokens a split or wrap just past the head is tried on.
 */
function headedTokens(): Array<{ shape: (typeof WRAPPED)[number]; token: string; head: number }> {
  const found = [];
  for (const shape of WRAPPED) {
    const token = tokenOf(shape);
    const head = shape.hints.find((h) => token.startsWith(h) && /[-_.:/]$/.test(h))?.length;
    if (
      !head || !WRAPPABLE.test(token) || MIXED_AHEAD.has(shape.id) || shape.id === "airtable-token"
    ) {
      continue;
    }
    found.push({ shape, token, head });
  }
  return found;
}

/** Two string literals joined, as code writes a token split to keep it from a scanner. */
const JOINED: Array<(first: string, rest: string) => string> = [
  (a, b) => `const note = "${a}" +\n  "${b}";\n`,
  (a, b) => `note = ("${a}"\n        "${b}")\n`,
  (a, b) => `$note = '${a}' . '${b}';\n`,
];

Deno.test("a prefixed token split over two string literals is redacted in both", () => {
  // (the literals were joined only after a match's end or a name's operator: a token split under
  // no secret's name, in its first 8 characters after its head or anywhere after, was left)
  const leaks: string[] = [];
  let splits = 0;
  for (const { shape, token, head } of headedTokens()) {
    for (const at of [head, head + 3, head + 7, Math.ceil(token.length / 2)]) {
      if (at > token.length - 8) continue;
      splits++;
      for (const join of JOINED) {
        const out = redactSync(join(token.slice(0, at), token.slice(at))).text;
        if (piecesLeft(token, out).length) leaks.push(`${shape.id} (at ${at}): ${out}`);
      }
    }
  }
  assert.ok(splits >= 300, `${splits} splits`);
  assert.deepEqual(leaks, []);
});

Deno.test("a prefixed token wrapped in its first 8 characters is redacted on both lines", () => {
  // (the wraps' search read a line end after 8 of a token's characters: `hf_Ab` then `Cd…` on the
  // next line was left whole)
  const leaks: string[] = [];
  let wraps = 0;
  for (const { shape, token, head } of headedTokens()) {
    for (let at = Math.max(head, 3); at < 8 && at <= token.length - 8; at++) {
      wraps++;
      const wrapped = `${token.slice(0, at)}\n    ${token.slice(at)}`;
      for (const place of PLACES) {
        const out = redactSync(place(wrapped)).text;
        if (piecesLeft(token, out).length) leaks.push(`${shape.id} (at ${at}): ${out}`);
      }
    }
  }
  assert.ok(wraps >= 100, `${wraps} wraps`);
  assert.deepEqual(leaks, []);
});
