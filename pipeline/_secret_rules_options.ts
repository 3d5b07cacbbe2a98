/**
 * The rule for a secret given as the default of a declared option or parameter
 * (`secret_rules.ts` is the public face): the option's or the parameter's name says what the
 * value is, and the value is written where a default goes.
 *
 * - Python's argparse and click: `add_argument("--password", default="…")`,
 *   `@click.option("--api-key", default="…")`;
 * - Go's flag package: `flag.String("password", "…", "usage")`,
 *   `flag.StringVar(&pw, "db-password", "…", "usage")`;
 * - commander (Node.js): `.option("--api-key <key>", "description", "…")`;
 * - fish's `set -x DB_PASSWORD …` (`-g`, `-U`, `-gx`, …);
 * - a CloudFormation or SAM template's parameter named for a secret: `DbPassword:` then its
 *   `Default: …` a few lines below;
 * - zod's `apiKey: z.string().default("…")`;
 * - clap's `#[arg(long, default_value = "…")]` before `password: String`, .NET's
 *   `[DefaultValue("…")]` before `public string Password { get; set; }`;
 * - Go's struct tag `env:"DB_PASSWORD" envDefault:"…"` (caarlos0/env);
 * - a shell's here-string given to a variable: `read -r PASSWORD <<< "…"`.
 *
 * @module
 */

import { passwordLike } from "./_secret_rules_names.ts";

/** A secret's word in an option's or a parameter's name (`password`, `db-pass`, `api_key`). */
const SECRET_WORD =
  /pass(?:word|wd|phrase)?|secret|token|api[-_]?key|auth[-_]?key|private[-_]?key/i;

/**
 * argparse's `add_argument(` or click's `option(`, its option's name (group `n`), then the same
 * call's `default=` and its quoted value (group `v`), on the call's first lines.
 */
const PYTHON_OPTION =
  /(?:add_argument|\.option)\(\s{0,64}(?:["']-[\w-]{0,8}["'],\s{0,64})?["'](?<n>--?[\w-]{1,64})["'][^()]{0,400}?\bdefault\s{0,16}=\s{0,16}(?<q>["'])(?<v>[^"'\\\r\n]{4,256})\k<q>/dg;

/** Go's `flag.String("name", "…"` and `flag.StringVar(&v, "name", "…"` (group `n`, `v`). */
const GO_FLAG =
  /\bflag\.String(?:Var\(\s{0,16}&?[\w.]{1,64},|\()\s{0,16}"(?<n>[\w.-]{1,64})",\s{0,16}"(?<v>[^"\\\r\n]{4,256})"/dg;

/** commander's `.option("--name <arg>", "description", "…")` (group `n`, `v`). */
const COMMANDER_OPTION =
  /\.option\(\s{0,64}(?<q1>["'`])(?:-\w, ?)?(?<n>--[\w-]{1,64})[^"'`\r\n]{0,64}\k<q1>\s{0,16},\s{0,64}(?<q2>["'`])[^"'`\r\n]{0,256}\k<q2>\s{0,16},\s{0,64}(?<q>["'`])(?<v>[^"'`\\\r\n]{4,256})\k<q>/dg;

/** fish's `set` with an export or scope flag, a name and its value (group `n`, `v`). */
const FISH_SET =
  /(?:^|[\n;])[ \t]{0,64}set[ \t]{1,8}(?:-[gxUlu]{1,4}[ \t]{1,8}){1,3}(?<n>[A-Za-z_][\w]{0,63})[ \t]{1,8}(?<q>["']?)(?<v>[^\s"'$;]{4,256})\k<q>[ \t]{0,64}(?=[\r\n;]|$)/dg;

/**
 * A CloudFormation parameter (its indent, group 1; its name, group `n`), then its `Default:`
 * (group `v`) among the next eight lines of its block.
 */
const TEMPLATE_PARAMETER =
  /^([ \t]{1,16})(?<n>[A-Za-z][A-Za-z0-9]{0,127}):[ \t]{0,64}\r?\n(?:\1[ \t]{1,16}[A-Za-z]{1,64}:[^\r\n]{0,256}\r?\n){0,8}?\1[ \t]{1,16}Default:[ \t]{1,16}(?<q>["']?)(?<v>[^\s"'#]{4,256})\k<q>[ \t]{0,64}$/dgm;

/** zod's `apiKey: z.string().default("…")`, maybe other calls between (group `n`, `v`). */
const ZOD_DEFAULT =
  /(?<n>[\w$]{1,64})["']?[ \t]{0,16}:[ \t]{0,16}z\.string\(\)(?:\.\w{1,32}\([^()\r\n]{0,64}\)){0,8}\.default\([ \t]{0,16}(?<q>["'`])(?<v>[^"'`\\\r\n]{4,256})\k<q>/dg;

/**
 * clap's (Rust) `#[arg(long, default_value = "…")]` before its field (`password: String`), and
 * .NET's `[DefaultValue("…")]` before its property (`public string Password { get; set; }`).
 */
const ATTRIBUTE_DEFAULT =
  /(?:default_value(?:_t)?[ \t]{0,16}=[ \t]{0,16}|\[DefaultValue\()(?<q>")(?<v>[^"\\\r\n]{4,256})"[^\]\r\n]{0,200}\]\s{0,64}(?:(?:pub(?:\([\w]{1,16}\))?|public|private|internal|protected|static|virtual|override)[ \t]{1,8}){0,3}(?:[\w<>?.]{1,64}[ \t]{1,8})?(?<n>[A-Za-z_]\w{0,63})[ \t]{0,16}[:{]/dg;

/** Go's struct tag of an environment variable and its default (`env:"DB_PASSWORD" envDefault:"…"`). */
const ENV_TAG_DEFAULT =
  /\benv:"(?<n>[A-Za-z_][\w]{0,63})(?:,[\w]{1,32}){0,4}"[^`"\r\n]{0,64}(?:"[^"`\r\n]{0,64}"[^`"\r\n]{0,64}){0,4}?envDefault:"(?<v>[^"\\\r\n]{4,256})"/dg;

/** A shell's `read NAME <<< "…"`: a here-string given to a variable (group `n`, `v`). */
const HERE_STRING =
  /\bread[ \t]{1,8}(?:-[a-zA-Z]{1,4}[ \t]{1,8}){0,4}(?<n>[A-Za-z_]\w{0,63})[ \t]{0,8}<<<[ \t]{0,8}(?<q>["']?)(?<v>[^\s"'$`]{4,256})\k<q>(?=[\s;]|$)/dg;

/** Each pattern and the words of which a text must hold one for the pattern to be tried. */
const SHAPES: Array<[RegExp, string[]]> = [
  [PYTHON_OPTION, ["add_argument", ".option("]],
  [GO_FLAG, ["flag.String"]],
  [COMMANDER_OPTION, [".option("]],
  [FISH_SET, ["set "]],
  [TEMPLATE_PARAMETER, ["Default:"]],
  [ZOD_DEFAULT, [".default("]],
  [ATTRIBUTE_DEFAULT, ["default_value", "DefaultValue("]],
  [ENV_TAG_DEFAULT, ["envDefault:"]],
  [HERE_STRING, ["<<<"]],
];

/**
 * Secrets given as the default of an option or a parameter named for one (see the module's
 * text); each value read as a password is (a stand-in, a reference or a word stays).
 *
 * @example
 * ```ts
 * import { findOptionDefaults } from "./_secret_rules_options.ts";
 * findOptionDefaults('p.add_argument("--password", default="Tr0ub4dor3x")'); // [{ start: 47, end: 58 }]
 * ```
 */
export function findOptionDefaults(text: string): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  for (const [pattern, words] of SHAPES) {
    // (a pattern is run only over a text that holds one of its words)
    if (!words.some((word) => text.includes(word))) continue;
    pattern.lastIndex = 0; // (`matchAll` starts where the pattern's `lastIndex` stands)
    for (const m of text.matchAll(pattern)) {
      // (the patterns with no group `q` read quoted values alone: Go's)
      const { n, v, q } = m.groups!;
      if (!SECRET_WORD.test(n) || !passwordLike(v, q !== "")) continue;
      const [start, end] = m.indices!.groups!.v!;
      out.push({ start, end });
    }
  }
  return out;
}
