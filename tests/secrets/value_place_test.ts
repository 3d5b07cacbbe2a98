// A rule's value placed by its group, not counted back from its match's end (twenty-eighth
// session): a pattern that reads past its value (the closing quote of
// `aws_secret_access_key "…"`, the closing tag of an XML RSA key's `<P>…</P>`) left the value's
// first characters and took what followed. The values are made here at random: no real secret
// is written in this repository.
import assert from "node:assert/strict";
import { redactText } from "../../pipeline/_scan.ts";
import { prng } from "../_helpers.ts";
import { redactsValue } from "./_redacts.ts";

const random = prng(4101);
const pick = (chars: string, n: number) =>
  Array.from({ length: n }, () => chars[Math.floor(random() * chars.length)]).join("");
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** A key as AWS makes them: 40 characters of base64, with a digit and both cases. */
function awsKey(): string {
  return pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ", 2) + pick("abcdefghijklmnopqrstuvwxyz", 2) +
    pick("0123456789", 2) + pick(B64, 34);
}

/** AWS's key after its name and a blank, in each language's forms; `{V}` is the value's place. */
const AWS_FORMS: Array<[string, string]> = [
  ["a.tcl", `dict set cfg aws_secret_access_key "{V}"`],
  ["a.tcl", `set aws_secret_access_key "{V}"`],
  ["a.rb", `  aws_secret_access_key "{V}"`],
  ["config.exs", `config :ex_aws, aws_secret_access_key "{V}"`],
  ["app.conf", `aws_secret_access_key '{V}'`],
  ["deploy.sh", `aws configure set aws_secret_access_key "{V}" --profile prod`],
  ["deploy.sh", `aws configure set aws_session_token '{V}'`],
  ["Makefile", `\taws configure set aws_secret_access_key {V}`],
];

Deno.test("an AWS key after its name and a blank is redacted exactly, its quotes kept", async () => {
  let tried = 0;
  for (const [path, form] of AWS_FORMS) {
    for (let k = 0; k < 8; k++) {
      const value = awsKey();
      await redactsValue(form.replace("{V}", value) + "\n", value, path);
      tried++;
    }
  }
  assert.ok(tried >= 60, `${tried} tried`);
});

Deno.test("an XML RSA key's private members are redacted exactly, their tags kept", async () => {
  for (let k = 0; k < 12; k++) {
    const p = pick(B64, 44), d = pick(B64, 88);
    const text = `<RSAKeyValue><Modulus>${pick(B64, 88)}</Modulus><Exponent>AQAB</Exponent>` +
      `<P>${p}</P><D>${d}</D></RSAKeyValue>\n`;
    const out = (await redactText(text, "key.xml")).text;
    assert.ok(
      out.includes("<P>[REDACTED:private-key]</P><D>[REDACTED:private-key]</D>") &&
        !out.includes(p.slice(0, 12)) && !out.includes(d.slice(0, 12)),
      `${text}-> ${out}`,
    );
  }
});
