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

/** Code around secrets of one rule or a few, and hints without secrets. */
const TEXTS: Array<[string, string]> = [
  ["a.js", `const task-list = 1;\nconst t = "${NPM}";\n// npm_config_cache is read\n`],
  ["b.ts", `const client = new OpenAI({ apiKey: "${OPENAI}" });\nconst other = "${ANTHROPIC}";\n`],
  ["c.py", `TOKEN = "${DATABRICKS}"\nops = "${ONEPASSWORD}"\n`],
  ["d.js", `// secretlint-disable-next-line\nconst a = "${NPM}";\nconst b = "${NPM}";\n`],
  [".npmrc", `//registry.npmjs.org/:_authToken=${pick(ALNUM, 36)}\n`],
  ["e.js", `ask-me npm_ ops_ dapi sk- but no secret\n`],
  ["f.env", `AWS_KEY=AKIA${pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)}\nK=${NPM}\n`],
  ["g.md", `xoxb-123456789012-1234567890123-${pick(ALNUM, 24)} and ${OPENAI}\n`],
  [
    "h.ts",
    `const url = "mongodb://localhost/test";\nconst b = "https://deploy:${
      pick(ALNUM, 14)
    }@example.com/x";\n`,
  ],
  ["i.py", `DB = "postgres://app:${pick(ALNUM, 16)}@db.internal:5432/prod"\nSG.x = 1\n`],
  ["j.json", `{"type": "service_account", "private_key_id": "1", "private_key": "x"}\n`],
  ["k.env", `aws_secret_access_key = "${pick(ALNUM, 40)}"\nGH=ghp_${pick(ALNUM, 36)}\n`],
  [
    "l.txt",
    `-----BEGIN RSA PRIVATE KEY-----\nMII${pick(ALNUM, 120)}\n-----END RSA PRIVATE KEY-----\n`,
  ],
];

Deno.test("a hinted text runs just the rules of its hints and finds what the whole preset finds", async () => {
  const rules = new Set<string>();
  for (const [path, text] of TEXTS) {
    const gated = await redactText(text, path);
    const whole = await redactText(text, path, { prefilter: false });
    assert.deepEqual(gated, whole, path);
    gated.findings.forEach((f) => rules.add(f.rule));
  }
  // (slop's own openai-key and anthropic-key rules name those merged findings.)
  for (
    const rule of [
      "npm",
      "databricks",
      "openai-key",
      "anthropic-key",
      "slack",
      "basicauth",
      "database-connection-string",
      "aws",
      "github",
    ]
  ) {
    assert.ok(rules.has(rule), `${rule} found: ${[...rules]}`);
  }
});

Deno.test("secretlintRulesFor() runs the rules of the hints a text holds, gcp and filter-comments", () => {
  // "task-list" holds "sk-": a hint is a substring, not a match.
  const expected: Array<[number, string]> = [
    [0, "gcp npm openai anthropic filter-comments"],
    [1, "gcp openai anthropic filter-comments"],
    [2, "gcp 1password databricks filter-comments"],
    [6, "aws gcp npm filter-comments"],
    [8, "gcp basicauth database-connection-string filter-comments"],
    [11, "aws gcp github filter-comments"],
  ];
  for (const [i, rules] of expected) {
    assert.deepEqual(secretlintRulesFor(TEXTS[i][1]), rules.split(" "), TEXTS[i][0]);
  }
});
