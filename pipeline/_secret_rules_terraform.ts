/**
 * The rule for the values Terraform's `random` provider generates, as its state holds them
 * (`secret_rules.ts` is the public face): a `random_password`'s `result`, and a `random_string`'s
 * `result` (and its `id`, the same value) when it was made with marks (`special`, true unless
 * turned off); and in a state's file, the values other resources hold under names that say
 * nothing of a secret (`azuread_application_password`'s and `azurerm_key_vault_secret`'s
 * `value`, a secret's `secret_string`, `plaintext_value`), judged by their shape. The attribute's name gives nothing away; the resource's type says what it is.
 * A `random_string` made without marks is most often a name's suffix (a bucket's, a DNS label's:
 * neither takes `!#$`), and stays.
 *
 * @module
 */

import { isPlaceholder, looksGenerated, looksRandom } from "./_secret_rules_common.ts";

/** A resource's type in a state (`terraform.tfstate`, `terraform show -json`). */
const RANDOM_TYPE = /"type":[ \t]{0,16}"random_(?<kind>password|string)"/g;
/** Where the next resource starts: the end of this one's attributes. */
const NEXT_TYPE = '"type"';
/** A string attribute that may hold the generated value (group `v`), JSON escapes and all. */
const GENERATED = /"(?<name>result|id)":[ \t]{0,16}"(?<v>(?:[^"\\\r\n]|\\[^\r\n]){1,1024})"/g;
/**
 * A `special` attribute that is false (no marks were drawn from): a state always writes it, and
 * a state's piece without it was made with marks (the default).
 */
const NOT_SPECIAL = /"special":[ \t]{0,16}false/;

/**
 * The generated values of every `random_password` and marked `random_string` resource in a
 * Terraform state text. Each resource is read from its `"type"` to the next `"type"`, once.
 *
 * @example
 * ```ts
 * import { findTerraformRandom } from "./_secret_rules_terraform.ts";
 * findTerraformRandom('"type": "random_password", "attributes": {"result": "x]9Kq!2m"}');
 * // [{ start: 55, end: 63 }]
 * ```
 */
export function findTerraformRandom(text: string): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  RANDOM_TYPE.lastIndex = 0;
  for (let m = RANDOM_TYPE.exec(text); m; m = RANDOM_TYPE.exec(text)) {
    const from = m.index + m[0].length;
    let to = text.indexOf(NEXT_TYPE, from);
    if (to < 0) to = text.length;
    const body = text.slice(from, to);
    if (m.groups!.kind === "password" || !NOT_SPECIAL.test(body)) {
      const found = [...body.matchAll(GENERATED)];
      const results = new Set(
        found.filter((g) => g.groups!.name === "result").map((g) => g.groups!.v),
      );
      for (const g of found) {
        const v = g.groups!.v;
        // a `random_string`'s `id` is its result; a `random_password`'s is `none`
        if (!results.has(v)) continue;
        const start = from + g.index! + g[0].length - 1 - v.length;
        out.push({ start, end: start + v.length });
      }
    }
    RANDOM_TYPE.lastIndex = to;
  }
  return out;
}

/** A Terraform state's file (`terraform.tfstate`, its `.backup`, a workspace's). */
const STATE_FILE = /\.tfstate(?:\.backup)?$/i;
/**
 * A string attribute whose name says nothing of what it holds (group `v`, JSON escapes and all):
 * a resource's `value`, a secret's `secret_string`, `plaintext_value`, `sensitive_value`.
 */
const STATE_VALUE =
  /"(?:value|secret_string|plaintext_value|sensitive_value)":[ \t]{0,16}"(?<v>(?:[^"\\\r\n]|\\[^\r\n]){8,1024})"/dg;
/** Letters, digits and a password's mark, no blank (`Xk2!mPq9…`): a password's shape. */
const MARKED = /^(?=[^]*[A-Za-z])(?=[^]*[0-9])(?=[^]*[!@#%^&*+=~?$])[^\s]{8,1024}$/;

/**
 * The values of a Terraform state's file held under attributes that name nothing
 * ({@linkcode STATE_VALUE}) that read as a generated token or a password with marks: a tag's
 * `"value": "web-server"`, a name, a path, a URL or a number stays.
 *
 * @example
 * ```ts
 * import { findTerraformStateValues } from "./_secret_rules_terraform.ts";
 * findTerraformStateValues('{"value": "Xk2!mPq9wLr7"}', {}, "terraform.tfstate");
 * // [{ start: 11, end: 23 }]
 * findTerraformStateValues('{"value": "web-server"}', {}, "terraform.tfstate"); // []
 * ```
 */
export function findTerraformStateValues(
  text: string,
  _hints?: unknown,
  path?: string,
): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  if (!path || !STATE_FILE.test(path)) return out;
  STATE_VALUE.lastIndex = 0;
  for (const m of text.matchAll(STATE_VALUE)) {
    const v = m.groups!.v;
    if (/^[a-z][a-z0-9+.-]{1,16}:\/\//i.test(v) || v.includes(" ")) continue; // a URL, words
    if (!(looksRandom(v) || looksGenerated(v) || (MARKED.test(v) && !isPlaceholder(v)))) continue;
    const [start, end] = m.indices!.groups!.v!;
    out.push({ start, end });
  }
  return out;
}
