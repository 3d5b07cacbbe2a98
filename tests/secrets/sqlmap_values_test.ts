// False positives found by reading every redaction of sqlmapproject/sqlmap by hand (bench/README.md,
// "False positives in five more outside trees"): code under a key's name, a port's mapping after a
// MySQL variable, a format's width, a GraphQL type and a file's path.
import assert from "node:assert/strict";
import { redactText } from "../../pipeline/secrets.ts";
import { keeps, redactsValue } from "./_redacts.ts";

Deno.test("redactText() keeps Python's expressions under a key's name: slices, tuples, keyword arguments", async () => {
  await keeps("common.py", "    key = hashlib.md5(getBytes(_)).hexdigest()[:8]\n");
  await keeps(
    "controller.py",
    "                    paramKey = (conf.hostname, conf.path, PLACE.GET, parameter[0])\n",
  );
  await keeps(
    "interactsh.py",
    '        aesKey = PKCS1_OAEP.new(self._key, hashAlgo=SHA256).decrypt(base64.b64decode(response["aes_key"]))\n',
  );
  // A random key of printable marks, unquoted, is still one (WordPress's shape).
  const key = "x{Qm7vX2pL9wKd4T|@#Zq8 -Lk;B]f^2Pw!s9@Zx+N}o&R%tUv3bY(Y4nM7c?Q~j";
  await redactsValue(`AUTH_KEY=${key}\n`, key, ".env");
});

Deno.test("redactText() keeps a port's mapping, a format's width and a GraphQL type under a password's name", async () => {
  await keeps(
    "README.md",
    "docker run -d --rm --name bcheck-mysql -e MYSQL_ROOT_PASSWORD=root -p 13306:3306 mysql:8.4\n",
  );
  await keeps("test_dns_server.py", '            secret = ("worker-%02d-secret" % i).encode()\n');
  await keeps(
    "test_graphql.py",
    '        """login(username: String!, password: String!) -- both required args"""\n',
  );
  await redactsValue("mysql -u root -p Qm7vX2pL9wKd4T shop\n", "Qm7vX2pL9wKd4T", "run.sh");
  await redactsValue("password: Summer2024!\n", "Summer2024!", "config.yaml");
});

Deno.test("redactText() keeps text after a file's absolute path whose name is a password's", async () => {
  // An XXE payload: `file:///etc/passwd` is a file, and `>]><foo>…` no password.
  await keeps(
    "test_xxe.py",
    '        "XXE::<!ENTITY xxe SYSTEM \\"file:///etc/passwd\\" >]><foo>&xxe;</foo>",\n',
  );
  // A key with a `/` in it is still a key.
  const out = (await redactText('{"db/password": "Qm7vX2pL9wKd4T"}\n', "a.json")).text;
  assert.ok(!out.includes("Qm7vX2pL9wKd4T"), out);
});
