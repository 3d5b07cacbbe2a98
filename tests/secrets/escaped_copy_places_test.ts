// A secret found in a text's escape-decoded copy (JSON's `\u0022`, HTML's `&quot;`, a URL's
// `%3D`) is redacted in the original text exactly where it is written: the placeholder covers
// the encoded value (its own escapes too), no half of an escape is left beside it, and a JSON file
// still parses. Generated over encodings, formats and values.
import assert from "node:assert/strict";
import { redactText } from "../../pipeline/_scan.ts";
import { redactsValue } from "./_redacts.ts";

/** Each encoding: how it writes `"`, `:`, `=`, `&`, `,`. */
const ENCODINGS: Array<Record<string, string>> = [
  { '"': "\\u0022", ":": "\\u003a", "=": "\\u003d", "&": "\\u0026", ",": "\\u002c" },
  { '"': "\\u0022", ":": "\\u003A", "=": "\\u003D", "&": "\\u0026", ",": "\\u002C" },
  { '"': "&quot;", ":": ":", "=": "=", "&": "&amp;", ",": "," },
  { '"': "&#34;", ":": ":", "=": "=", "&": "&amp;", ",": "," },
  { '"': "&#x22;", ":": ":", "=": "=", "&": "&amp;", ",": "," },
  { '"': "&#X22;", ":": ":", "=": "=", "&": "&amp;", ",": "," },
  { '"': "&#034;", ":": ":", "=": "=", "&": "&amp;", ",": "," },
  { '"': "%22", ":": "%3a", "=": "%3d", "&": "%26", ",": "%2c" },
  { '"': "%22", ":": "%3A", "=": "%3D", "&": "%26", ",": "%2C" },
];
/** Values to hide, with an operator or quote of their own that the encoding writes escaped. */
const VALUES = ["Qx7vLm2Rk9Tz", "Tr0ub4dor9x", "k9=Qx7vLm2R", "Zp4,Lm2Rk9Tq"];

/** `template` with each ASCII sign written as `enc` writes it. */
function encode(template: string, enc: Record<string, string>): string {
  return template.replace(/["=:&,]/g, (c) => enc[c] ?? c);
}

/** The documents each encoding's text is written in, by file: JSON strings, HTML, a log. */
function documents(inner: string): Array<[string, string]> {
  return [
    [`{"body": "${inner}"}\n`, "capture.json"],
    [`{"log": {"entries": [{"text": "${inner}"}]}}\n`, "session.har"],
    [`<pre>${inner}</pre>\n`, "page.html"],
    [`10:00:01 POST /login body=${inner}\n`, "app.log"],
  ];
}

/** A value written as `enc` writes it, in a JSON object and in a query string, so written too. */
function innersOf(shown: string, enc: Record<string, string>): string[] {
  return [
    encode(`{"password":"`, enc) + shown + encode(`","user":"bob"}`, enc),
    encode(`user=bob&password=`, enc) + shown + encode(`&next=1`, enc),
  ];
}

Deno.test("a secret found in an escaped copy is redacted on its encoded bytes alone", async () => {
  for (const enc of ENCODINGS) {
    for (const value of VALUES) {
      const shown = encode(value, enc);
      for (const inner of innersOf(shown, enc)) {
        // a JSON string's own `\` escapes only (`\u…`): a value of `&` or `%` needs none
        if (inner.includes('"') && !inner.includes("\\")) continue;
        for (const [text, path] of documents(inner)) {
          await redactsValue(text, shown, path);
          if (!path.endsWith(".json") && !path.endsWith(".har")) continue;
          JSON.parse((await redactText(text, path)).text);
        }
      }
    }
  }
});

Deno.test("an escape is never split by a redaction's edge", async () => {
  const enc = ENCODINGS[0];
  for (const value of VALUES) {
    const text = `{"b": "${encode(`password=`, enc)}${encode(value, enc)}${enc['"']}x"}\n`;
    const out = (await redactText(text, "a.json")).text;
    // every `\u` left is a whole escape of four hex digits
    assert.ok(!/\\u(?![0-9a-fA-F]{4})/.test(out), out);
    JSON.parse(out);
  }
});

Deno.test("a secret in a log's \\xXX escapes (nginx's logged body) is redacted on its encoded bytes alone", async () => {
  // (nginx writes a logged body's quotes and more as `\x22`; no JSON string holds a `\x`)
  for (const hex of [(c: string) => c, (c: string) => c.toUpperCase()]) {
    const enc: Record<string, string> = {};
    for (const c of `"=:&,`) enc[c] = `\\x${hex(c.charCodeAt(0).toString(16))}`;
    for (const value of VALUES) {
      const shown = encode(value, enc);
      for (const inner of innersOf(shown, enc)) {
        for (const [text, path] of documents(inner).slice(2)) await redactsValue(text, shown, path);
      }
    }
  }
});
