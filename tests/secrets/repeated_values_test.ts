import assert from "node:assert/strict";
import { redactSync, redactText } from "../../pipeline/secrets.ts";

Deno.test("a secret found once is hidden wherever its file repeats it", async () => {
  // ansible/ansible-examples' postgresql.yml: the comment's `password "…"` is read as one, the
  // unquoted YAML value of letters alone below it is not; both are the same password.
  const text = '# a user called "django" with password "mysupersecretpassword"\n' +
    "  vars:\n    dbpassword: mysupersecretpassword\n    note: mysupersecretpassword2\n";
  const result = await redactText(text, "postgresql.yml");
  assert.ok(!result.text.includes("mysupersecretpassword\n"), result.text);
  assert.match(result.text, /dbpassword: \[REDACTED:password\]\n/);
  // A longer word that holds the value is another word, and stays.
  assert.match(result.text, /note: mysupersecretpassword2\n/);
  assert.deepEqual(result.findings.map((f) => f.line), [1, 3]);
  // The same in the synchronous scan.
  assert.equal(redactSync(text).text, result.text);
});

Deno.test("a short word found as a password is not hidden elsewhere in its file", async () => {
  // docker/awesome-compose: `nextcloud` is the database's password and the image's name.
  const text = "services:\n  db:\n    image: nextcloud\n    environment:\n" +
    "      - MYSQL_PASSWORD=nextcloud\n";
  const result = await redactText(text, "compose.yaml");
  assert.match(result.text, /image: nextcloud\n/);
  assert.match(result.text, /MYSQL_PASSWORD=\[REDACTED:password\]/);
  // Nor are words joined: traefik's `caSecret: redis-ca` names a Kubernetes secret, and the
  // docs name it again.
  const joined = "password: redis-ca-cert\nkind: Secret\nname: redis-ca-cert\n";
  assert.match((await redactText(joined, "ratelimit.yml")).text, /name: redis-ca-cert\n/);
});

Deno.test("at most 64 distinct found values are looked for again in one text", () => {
  // 200 distinct tokens, each assigned on a line, then all written again on one line: the work
  // stays linear in the text, so only the first 64 values' repeats are hidden.
  const values = Array.from(
    { length: 200 },
    (_, i) => `zQ${i.toString(36).padStart(4, "0")}kXpR7wLmN2vBtY9c`,
  );
  const text = values.map((v, i) => `API_TOKEN_${i}="${v}"`).join("\n") + "\n" + values.join(" ") +
    "\n";
  const result = redactSync(text);
  assert.equal(result.findings.filter((f) => f.line <= 200).length, 200);
  assert.equal(result.findings.filter((f) => f.line === 201).length, 64);
  assert.ok(result.text.endsWith(` ${values[64]} ${values.slice(65).join(" ")}\n`));
});
