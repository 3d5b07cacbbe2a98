// A token written in pieces under no hint of its own: split over literals by each language's join
// (`"dop_v" + "1_…"`, Lua's `..`, OCaml's `^`, Elixir's `<>`, Julia's `*`, SQL's `||`, R's
// `paste0`, `"".join([…])`, a shell's `"…""…"`, a template's `${"…"}`), cut anywhere, its prefix
// too; and wrapped over lines in a text with a token's hint. The tokens are made here from each
// rule's own pattern: no real token is written in this repository.
import assert from "node:assert/strict";
import { redactSync } from "../../pipeline/_scan.ts";
import { SECRET_SHAPES } from "../../pipeline/secret_rules.ts";
import { left, PREFIXED_TOKENS, secretOf, tokenOf as tokenFrom } from "./_token_sample.ts";
import { prng } from "../_helpers.ts";

const random = prng(30);

const tokenOf = (shape: (typeof PREFIXED_TOKENS)[number]) => tokenFrom(shape, random);

/** Each language's way of joining two literals, with no name that gives the token away. */
const JOINS: Record<string, (a: string, b: string) => string> = {
  "JavaScript +": (a, b) => `const note = "${a}" +\n  "${b}";\n`,
  "Zig's ++": (a, b) => `const note = "${a}" ++ "${b}";\n`,
  "template literals": (a, b) => `const note = \`${a}\` + \`${b}\`;\n`,
  "a template's ${}": (a, b) => `const note = \`${a}\${"${b}"}\`;\n`,
  "Python side by side": (a, b) => `note = ("${a}"\n        "${b}")\n`,
  "Python \\": (a, b) => `note = "${a}" \\\n    "${b}"\n`,
  "C side by side": (a, b) => `static const char *note = "${a}" "${b}";\n`,
  "Perl's .": (a, b) => `my $note = '${a}'\n  . '${b}';\n`,
  "Lua's ..": (a, b) => `local note = "${a}" .. "${b}"\n`,
  "OCaml's ^": (a, b) => `let note = "${a}" ^ "${b}"\n`,
  "Elixir's <>": (a, b) => `note = "${a}" <> "${b}"\n`,
  "Julia's *": (a, b) => `note = "${a}" * "${b}"\n`,
  "SQL's ||": (a, b) => `SELECT '${a}' || '${b}';\n`,
  "VB's &": (a, b) => `Dim note = "${a}" & "${b}"\n`,
  "R's paste0": (a, b) => `note <- paste0("${a}", "${b}")\n`,
  "R's sep": (a, b) => `note <- paste("${a}", "${b}", sep = "")\n`,
  "Python's join": (a, b) => `note = "".join(["${a}", "${b}"])\n`,
  "Go's strings.Join": (a, b) => `note := strings.Join([]string{"${a}", "${b}"}, "")\n`,
  "a shell's quotes": (a, b) => `NOTE="${a}""${b}"\n`,
};

Deno.test("a token split over two literals anywhere, its prefix too, is redacted in each language's join", () => {
  const leaks: string[] = [];
  let splits = 0;
  for (const shape of PREFIXED_TOKENS) {
    const token = tokenOf(shape);
    const secret = secretOf(token);
    const head = token.length - secret.length;
    for (const at of new Set([2, 3, head - 1, head, head + 3, Math.ceil(token.length / 2)])) {
      if (at < 1 || at > token.length - 4) continue;
      splits++;
      for (const [how, join] of Object.entries(JOINS)) {
        const out = redactSync(join(token.slice(0, at), token.slice(at))).text;
        if (left(secret, out)) leaks.push(`${shape.id} (${how}, at ${at}): ${out.trim()}`);
      }
    }
  }
  assert.ok(splits >= 500, `${splits} splits`);
  assert.deepEqual(leaks, []);
});

Deno.test("a webhook split over three literals at its path's marks is redacted", () => {
  for (const id of ["discord-webhook", "slack-webhook"]) {
    const token = tokenOf(SECRET_SHAPES.find((s) => s.id === id)!);
    const cuts = [...token.matchAll(/\//g)].map((m) => m.index).filter((i) => i > 8);
    for (const [x, y] of [[2, cuts[1]], [cuts[0], cuts[cuts.length - 1]]]) {
      const text = `hook = "${token.slice(0, x)}" + "${token.slice(x, y)}" + "${token.slice(y)}"\n`;
      const out = redactSync(text).text;
      assert.ok(!left(secretOf(token), out), out);
    }
  }
});

Deno.test("literals that are no token's pieces are kept", () => {
  const slack = tokenOf(SECRET_SHAPES.find((s) => s.id === "slack-token")!);
  const aws = tokenOf(SECRET_SHAPES.find((s) => s.id === "aws-access-key-id")!);
  const texts = [
    // a list joined with a separator, a map's literals, names and versions side by side
    `const t = ["${slack.slice(0, 5)}", "802103739340"].join("-");\n`,
    `LOCALES = {"en_SG.ISO8859-1": "en_uk", "zh_SG.GB2312": "zh_sg.gbk"}\n`,
    `deps = ["react@18.2.0", "react-dom@18.2.0", "typescript@5.4.5"]\n`,
    `msg = "Version 1.2.3 of " + "ModuleName2" + " is required"\n`,
  ];
  for (const text of texts) assert.equal(redactSync(text).text, text);
  // a key found whole at its line's end stays as found, the next line's name kept
  const env = `AWS_ACCESS_KEY_ID=${aws}\nAWS_REGION_NAME='eu-west-1'\n`;
  assert.equal(
    redactSync(env).text,
    `AWS_ACCESS_KEY_ID=[REDACTED:aws]\nAWS_REGION_NAME='eu-west-1'\n`,
  );
});
