/**
 * The rule for the values Terraform's `random` provider generates, as its state holds them
 * (`secret_rules.ts` is the public face): a `random_password`'s `result`, and a `random_string`'s
 * `result` (and its `id`, the same value) when it was made with marks (`special`, true unless
 * turned off). The attribute's name gives nothing away; the resource's type says what it is.
 * A `random_string` made without marks is most often a name's suffix (a bucket's, a DNS label's:
 * neither takes `!#$`), and stays.
 *
 * @module
 */

/** A resource's type in a state (`terraform.tfstate`, `terraform show -json`). */
const RANDOM_TYPE = /"type":[ \t]{0,16}"random_(?<kind>password|string)"/g;
/** Where the next resource starts: the end of this one's attributes. */
const NEXT_TYPE = '"type"';
/** A string attribute that may hold the generated value (group `v`), JSON escapes and all. */
const GENERATED = /"(?<name>result|id)":[ \t]{0,16}"(?<v>(?:[^"\\\r\n]|\\[^\r\n]){1,1024})"/g;
/** A `special` attribute that is true (marks were drawn from). */
const SPECIAL = /"special":[ \t]{0,16}true/;

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
    if (m.groups!.kind === "password" || SPECIAL.test(body)) {
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
