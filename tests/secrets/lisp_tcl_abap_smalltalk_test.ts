// The seventh outside sweep's languages' own forms (twenty-seventh session): a password or key
// named in a Lisp's definition, binding, property list or table (`(def password "…")`,
// `(defvar *db-password* "…")`, `(setq my-api-key "…")`, `'(:password "…")`,
// `(setf (gethash "password" env) "…")`), Tcl's `set` and `dict set`, ABAP's `TYPE … VALUE '…'`
// and `DATA(…) =`, Smalltalk's `at: '…' put: '…'`, Salesforce's custom metadata
// `<field>`/`<value>`, Ansible's `!unsafe` tag; and a token split by ABAP's `&&`, Jinja's `~`,
// Smalltalk's `,`, or appended in the next statement (Tcl's `append`, `+=`, PHP's `.=`). The values are made here at random: no real secret is written in this
// repository.
import assert from "node:assert/strict";
import { redactText } from "../../pipeline/_scan.ts";
import { splitTokenLeaks, type TokenJoin } from "./_token_sample.ts";
import { prng } from "../_helpers.ts";
import { kept } from "./_redacts.ts";

const random = prng(327);
const pick = (chars: string, n: number) =>
  Array.from({ length: n }, () => chars[Math.floor(random() * chars.length)]).join("");
const AN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A password of small letters, capitals, digits, maybe a mark, and letters and digits. */
function password(k: number): string {
  return pick("abcdefghjkmnpqrstuvwxyz", 3) + pick("ABCDEFGHJKLMNPQRSTUVWXYZ", 3) +
    pick("23456789", 3) + (k % 2 ? "#" : "") + pick(AN, 6);
}

/** Each form, with its file; `{V}` is the value's place, `{N}` the name's. */
const FORMS: Array<[string, string]> = [
  ["core.clj", `(def {N} "{V}")`],
  ["core.clj", `(def ^:private {N} "{V}")`],
  ["init.el", `(setq my-{N} "{V}")`],
  ["init.el", `(defcustom my-{N} "{V}" "The secret.")`],
  [".emacs", `(setq-default {N} "{V}")`],
  ["a.scm", `(define {N} "{V}")`],
  ["a.rkt", `(define db-{N} "{V}")`],
  ["a.lisp", `(defvar *db-{N}* "{V}")`],
  ["a.lisp", `(defparameter +{N}+ "{V}")`],
  ["a.lisp", `(let (({N} "{V}")) (connect))`],
  ["a.lisp", `(defparameter *config* '(:user "admin" :{N} "{V}"))`],
  ["a.el", `(list :host "db" :{N} "{V}")`],
  ["a.lisp", `(setf (gethash "{N}" *env*) "{V}")`],
  ["a.el", `(puthash "{N}" "{V}" table)`],
  ["a.rkt", `(hash-set! table "{N}" "{V}")`],
  ["a.el", `'(("user" . "admin") ("{N}" . "{V}"))`],
  ["a.tcl", `set {N} "{V}"`],
  ["a.tcl", `set {N} {{V}}`],
  ["a.tcl", `    set {N} {V}`],
  ["a.tcl", `set ::env({N}) "{V}"`],
  ["a.exp", `dict set cfg {N} "{V}"`],
  ["a.abap", `    CONSTANTS c_{N} TYPE string VALUE '{V}'.`],
  ["a.abap", `    DATA lv_{N} TYPE c LENGTH 40 VALUE '{V}'.`],
  ["a.abap", `    constants: gc_{N} type string value \`{V}\`.`],
  ["a.abap", `    DATA(lv_{N}) = '{V}'.`],
  ["a.st", `\tdict at: '{N}' put: '{V}'.`],
  ["a.st", `\tclient headerAt: '{N}' put: '{V}'.`],
  ["a.st", `\tsettings at: #{N} put: '{V}'.`],
  [
    "Api.Default.md-meta.xml",
    `<values>\n    <field>{N}__c</field>\n    <value xsi:type="xsd:string">{V}</value>\n</values>`,
  ],
  ["group_vars/all.yml", `{N}: !unsafe '{V}'`],
];

/** The names each form is tried with, in the casing its language writes. */
const NAMES: Record<string, string[]> = {
  lisp: ["password", "api-key", "secret-token"],
  tcl: ["password", "api_key", "db_pass"],
  abap: ["password", "api_key", "client_secret"],
  st: ["password", "X-Api-Key", "apiToken"],
  xml: ["Password", "Api_Key", "Client_Secret"],
  yml: ["admin_password", "api_key"],
};

function namesFor(path: string): string[] {
  if (/\.(?:tcl|exp)$/.test(path)) return NAMES.tcl;
  if (path.endsWith(".abap")) return NAMES.abap;
  if (path.endsWith(".st")) return NAMES.st;
  if (path.endsWith(".xml")) return NAMES.xml;
  if (path.endsWith(".yml")) return NAMES.yml;
  return NAMES.lisp;
}

Deno.test("a secret named in a Lisp's, Tcl's, ABAP's or Smalltalk's own forms is redacted", async () => {
  const leaks: string[] = [];
  let tried = 0;
  for (const [path, form] of FORMS) {
    for (const name of namesFor(path)) {
      for (let k = 0; k < 6; k++) {
        const value = k < 4 ? password(k) : pick("0123456789abcdef", 32);
        const text = form.replace("{N}", name).replace("{V}", value) + "\n";
        const out = (await redactText(text, path)).text;
        tried++;
        if (out.includes(value) || !out.includes("[REDACTED:")) {
          leaks.push(`${path}: ${out.trim()}`);
        }
      }
    }
  }
  assert.ok(tried >= 500, `${tried} tried`);
  assert.deepEqual(leaks, []);
});

/** Each join, with its file. */
const JOINS: TokenJoin[] = [
  ["a.abap", "ABAP's &&", (a, b) => `    lv_note = '${a}' && '${b}'.\n`],
  ["a.abap", "ABAP's && over a line", (a, b) => `    lv_note = \`${a}\`\n      && \`${b}\`.\n`],
  ["deploy.yml", "Jinja's ~", (a, b) => `      X-Note: "{{ '${a}' ~ '${b}' }}"\n`],
  ["a.j2", "Jinja's set ~", (a, b) => `{% set note = '${a}' ~ '${b}' %}\n`],
  ["a.d", "D's ~", (a, b) => `auto note = "${a}" ~ "${b}";\n`],
  ["a.st", "Smalltalk's , after :=", (a, b) => `\tnote := '${a}' , '${b}'.\n`],
  ["a.st", "Smalltalk's , after ^", (a, b) => `\t^ '${a}', '${b}'\n`],
  ["a.tcl", "Tcl's append", (a, b) => `set note "${a}"\nappend note "${b}"\n`],
  ["a.py", "Python's +=", (a, b) => `    note = "${a}"\n    note += "${b}"\n`],
  ["a.js", "JavaScript's +=", (a, b) => `let note = '${a}';\nnote += '${b}';\n`],
  ["a.php", "PHP's .=", (a, b) => `$note = '${a}';\n$note .= '${b}';\n`],
];

Deno.test("a token split by ABAP's &&, Jinja's ~, Smalltalk's , or an append is redacted", async () => {
  const { leaks, splits } = await splitTokenLeaks(JOINS, random, [3, 10]);
  assert.ok(splits >= 300, `${splits} splits`);
  assert.deepEqual(leaks, []);
});

Deno.test("these languages' code and words under a secret's name are kept", async () => {
  for (
    const [path, text] of [
      ["init.el", `(defvar my-password-prompt "Password: ")\n`],
      ["init.el", `(defcustom auth-source-pass-filename "~/.password-store" "Where.")\n`],
      ["init.el", `(setq auth-sources '("~/.authinfo.gpg"))\n`],
      ["init.el", `(read-passwd "Password: ")\n`],
      ["core.clj", `(def token-url "https://oauth2.googleapis.com/token")\n`],
      ["core.clj", `(def api-key-header "X-Api-Key")\n`],
      ["a.lisp", `(defparameter *password* "")\n`],
      ["a.lisp", `(let ((password (read-line))) (check password))\n`],
      ["a.tcl", `set password ""\n`],
      ["a.tcl", `set password [gets stdin]\n`],
      ["a.tcl", `set password $env(DB_PASSWORD)\n`],
      ["a.tcl", `set token_file "~/.config/token"\n`],
      ["a.tcl", `set key_bindings {a b c}\n`],
      ["a.abap", `    CONSTANTS c_password_field TYPE string VALUE 'PASSWORD'.\n`],
      ["a.abap", `    DATA(lv_token) = lo_http->get_token( ).\n`],
      ["a.abap", `    DATA lv_key TYPE string VALUE IS INITIAL.\n`],
      ["a.abap", `    lv_text = 'Hello' && ' World' && lv_name.\n`],
      ["a.st", `\tdict at: 'password' put: aPassword.\n`],
      ["a.st", `\theaders at: 'Authorization' put: 'Bearer ' , token.\n`],
      ["a.st", `\tlabel := 'Hello' , ' world'.\n`],
      ["a.j2", `{{ 'Hello ' ~ name ~ '!' }}\n`],
      [
        "a.xml",
        `<values>\n  <field>Label__c</field>\n  <value xsi:type="xsd:string">Hello</value>\n</values>\n`,
      ],
      ["a.yml", `greeting: !unsafe '{{ not a template }}'\n`],
      ["a.tcl", `set msg "Hello"\nappend msg " world, 42 times"\n`],
      ["a.py", `    label = "release-2024"\n    label += "-candidate"\n`],
    ]
  ) await kept(text, path);
});
