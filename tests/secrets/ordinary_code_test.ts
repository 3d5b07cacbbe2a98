import assert from "node:assert/strict";
import { redactText } from "../../pipeline/secrets.ts";

/** Code that reads, declares or describes a secret, and placeholders: none of it is a value. */
const ORDINARY: Array<[string, string]> = [
  ["a.py", 'password = os.environ["DB_PASSWORD"]\ntoken = request.headers.get("X-Token")\n'],
  [
    "a.ts",
    "const token: string = process.env.GITHUB_TOKEN ?? '';\ninterface A { token: string }\n",
  ],
  ["b.ts", "const apiKey = config.secrets.apiKeyForProduction2024;\nconst key = cacheKey(file);\n"],
  [
    ".env",
    "OPENAI_API_KEY=your-api-key-here\nAWS_SECRET_ACCESS_KEY=${AWS_SECRET}\nTOKEN=<secret>\n",
  ],
  ["c.yaml", "password: changeme\napi_key: xxxxxxxxxxxxxxxxxxxxxxxx\nsecret: '****************'\n"],
  [
    "d.py",
    'URL = "postgres://user:pass@localhost/db"\nDSN = f"mysql://{user}:{password}@{host}/x"\n',
  ],
  [
    "e.py",
    'fmt = "%s://%s:%s@%s" % (scheme, user, password, host)\nurl = "http://u:p@example.com"\n',
  ],
  [
    "package-lock.json",
    '{"node_modules/eslint-visitor-keys": {"version": "3.4.3", "license": "Apache-2.0",\n"integrity": "sha512-wpc+LXeiyiisxPlEkUzU6svyS1frIO3Mgxj1fdy7Pm8Ygzguax2N3Fa/D/ag1WqbOprdI+uY6wMUl8/a2G+iag=="}}\n',
  ],
  ["f.py", 'KEYWORDS = {"if": "keyword if", "def": "function definition"}\n'],
  ["g.md", "Set `Authorization: Bearer <token>` and pass `--token $GITHUB_TOKEN`.\n"],
];

Deno.test("redactText() leaves code that reads a secret, declarations and placeholders alone", async () => {
  for (const [path, text] of ORDINARY) {
    const result = await redactText(text, path);
    assert.deepEqual(result.findings, [], `${path}: ${result.text}`);
  }
});
