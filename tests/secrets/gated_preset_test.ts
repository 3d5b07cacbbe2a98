import assert from "node:assert/strict";
import { redactText } from "../../pipeline/secrets.ts";
import { secretlintRulesFor } from "../../pipeline/_scan.ts";
import { prng } from "../_helpers.ts";

const random = prng(21);
const pick = (chars: string, n: number) =>
  Array.from({ length: n }, () => chars[Math.floor(random() * chars.length)]).join("");
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

const NPM = `npm_${pick(ALNUM, 36)}`;
const OPENAI = `sk-proj-${pick(ALNUM, 74)}T3BlbkFJ${pick(ALNUM, 74)}`;
const ANTHROPIC = `sk-ant-api03-${pick(ALNUM, 95)}AA`;
const DATABRICKS = `dapi${pick("0123456789abcdef", 32)}`;
const ONEPASSWORD = `ops_${
  btoa(JSON.stringify({ email: "a@b.example", muk: { k: pick(ALNUM, 80) }, signInAddress: "x" }))
}`;

/** Code around secrets of the gated rules only (no other hint), and some with other hints too. */
const TEXTS: Array<[string, string]> = [
  ["a.js", `const task-list = 1;\nconst t = "${NPM}";\n// npm_config_cache is read\n`],
  ["b.ts", `const client = new OpenAI({ apiKey: "${OPENAI}" });\nconst other = "${ANTHROPIC}";\n`],
  ["c.py", `TOKEN = "${DATABRICKS}"\nops = "${ONEPASSWORD}"\n`],
  ["d.js", `// secretlint-disable-next-line\nconst a = "${NPM}";\nconst b = "${NPM}";\n`],
  [".npmrc", `//registry.npmjs.org/:_authToken=${pick(ALNUM, 36)}\n`],
  ["e.js", `ask-me npm_ ops_ dapi sk- but no secret\n`],
  ["f.env", `AWS_KEY=AKIA${pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)}\nK=${NPM}\n`],
  ["g.md", `xoxb-123456789012-1234567890123-${pick(ALNUM, 24)} and ${OPENAI}\n`],
];

Deno.test("a text whose only hints are gated runs just their rules and finds what the whole preset finds", async () => {
  const rules = new Set<string>();
  for (const [path, text] of TEXTS) {
    const gated = await redactText(text, path);
    const whole = await redactText(text, path, { prefilter: false });
    assert.deepEqual(gated, whole, path);
    gated.findings.forEach((f) => rules.add(f.rule));
  }
  // (slop's own openai-key and anthropic-key rules name those merged findings.)
  for (const rule of ["npm", "databricks", "openai-key", "anthropic-key", "slack"]) {
    assert.ok(rules.has(rule), `${rule} found: ${[...rules]}`);
  }
});

Deno.test("secretlintRulesFor() narrows to the gated rules only when no other hint is present", () => {
  // "task-list" holds "sk-": a hint is a substring, not a match.
  assert.deepEqual(secretlintRulesFor(TEXTS[0][1]), [
    "npm",
    "openai",
    "anthropic",
    "filter-comments",
  ]);
  assert.deepEqual(secretlintRulesFor(TEXTS[1][1]), ["openai", "anthropic", "filter-comments"]);
  assert.deepEqual(secretlintRulesFor(TEXTS[2][1]), ["1password", "databricks", "filter-comments"]);
  assert.equal(secretlintRulesFor(TEXTS[6][1]), undefined, "an aws hint: the whole preset");
  assert.equal(secretlintRulesFor(TEXTS[7][1]), undefined, "a slack hint: the whole preset");
});
