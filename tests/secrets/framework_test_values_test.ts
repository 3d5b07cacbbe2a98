// False positives found by reading every redaction of laravel/framework, square/okhttp and
// tokio-rs/axum by hand (bench/README.md, "False positives in five more outside trees"): each
// test keeps the class of text and still redacts the secret written next to it.
import assert from "node:assert/strict";
import { redactText } from "../../pipeline/secrets.ts";
import { keeps, redactsValue } from "./_redacts.ts";

Deno.test("redactText() keeps a validator's rules under a password's name", async () => {
  // laravel/framework's tests: `['password' => 'required|confirmed']`, a rule and its argument.
  await keeps("FormRequestTest.php", "        return ['password' => 'required|confirmed'];\n");
  await keeps(
    "ValidationValidatorTest.php",
    "$v = new Validator($trans, ['password' => 'foo'], ['password' => 'current_password:custom']);\n",
  );
  await keeps(
    "ValidationValidatorTest.php",
    "$v = new Validator($t, $data, ['password' => 'Confirmed:passwordConfirmation']);\n",
  );
  await keeps("rules.php", "    'password' => 'required|string|min:8|confirmed',\n");
  // A password with a `|` among digits and capitals is still one.
  await redactsValue("    'password' => 'Tr0ub|4dor9X',\n", "Tr0ub|4dor9X", "config.php");
});

Deno.test("redactText() keeps a command line's option and a variable joined to it in PHP", async () => {
  // laravel/framework's DbCommand.php builds `mysql --password=…` from the connection's config.
  await keeps(
    "DbCommand.php",
    "            'password' => '--password='.$connection['password'],\n",
  );
  await keeps("a.php", "    $args['password'] = '-p'.$this->password.'';\n");
  await redactsValue("            'password' => 'S3cr3t!x9',\n", "S3cr3t!x9", "database.php");
});

Deno.test("redactText() keeps a number given after => in code, and a prompt's question", async () => {
  // laravel/framework: `'password' => 10000000` (a test's integer) and Laravel Prompts'
  // `password('What is the decryption key?')`.
  await keeps("ValidationPasswordRuleTest.php", "            'password' => 10000000,\n");
  await keeps(
    "EnvironmentDecryptCommand.php",
    "            $key = password('What is the decryption key?');\n",
  );
  // Digits under a password's name in a settings file, and SQL's PASSWORD('…'), are passwords.
  await redactsValue("DB_PASSWORD=12345678\n", "12345678", ".env");
  await redactsValue("SET x = PASSWORD('S3cretPass9');\n", "S3cretPass9", "setup.sql");
});

Deno.test("redactText() keeps the alphabet written backwards as a test's key", async () => {
  // laravel/framework's EnvironmentDecryptCommandTest.php.
  await keeps(
    "EnvironmentDecryptCommandTest.php",
    "        $_SERVER['LARAVEL_ENV_ENCRYPTION_KEY'] = 'ponmlkjihgfedcbaponmlkjihgfedcba';\n",
  );
  await redactsValue(
    "        $_SERVER['LARAVEL_ENV_ENCRYPTION_KEY'] = 'ponmlkjihQzX8wPbaponmlkjihgfedcba';\n",
    "ponmlkjihQzX8wPbaponmlkjihgfedcba",
    "a.php",
  );
});

Deno.test("redactText() keeps code that writes a key's BEGIN and END lines around no key", async () => {
  // square/okhttp's HeldCertificate.kt encodes the key between the two lines it appends.
  await keeps(
    "HeldCertificate.kt",
    [
      "  fun privateKeyPkcs8Pem(): String =",
      "    buildString {",
      '      append("-----BEGIN PRIVATE KEY-----\\n")',
      "      encodeBase64Lines(keyPair.private.encoded.toByteString())",
      '      append("-----END PRIVATE KEY-----\\n")',
      "    }",
      "",
    ].join("\n"),
  );
  // A key written in a string between the same calls is a key.
  const line = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDTZXlmOaosH9VD";
  const text = [
    '      append("-----BEGIN PRIVATE KEY-----\\n")',
    `      append("${line}\\n")`,
    '      append("-----END PRIVATE KEY-----\\n")',
    "",
  ].join("\n");
  const out = (await redactText(text, "Keys.kt")).text;
  assert.ok(!out.includes(line), out);
});

Deno.test("redactText() keeps a certificate's public key in a comment and a nullable type", async () => {
  // square/okhttp: a certificate's summary in KDoc, and Kotlin's `val masterSecret: SecretKey?`.
  await keeps(
    "HeldCertificate.kt",
    " * Public Key: d107beecc17325f55da976bcbab207ba4df68bd3f8fce7c3b5850311128264fd53e1baa342f58d93...\n",
  );
  await keeps("WiresharkExample.kt", "    private val SSLSession.masterSecret: SecretKey?\n");
  await redactsValue(
    " * Secret Key: d107beecc17325f55da976bcbab207ba4df68bd3f8fce7c3b5850311128264fd\n",
    "d107beecc17325f55da976bcbab207ba4df68bd3f8fce7c3b5850311128264fd",
    "notes.md",
  );
  await redactsValue("password: Hunter2?x\n", "Hunter2?x", "config.yaml");
});

Deno.test("redactText() keeps a URL's test of escapes and the word password with its @", async () => {
  // square/okhttp's HttpUrlTest.kt: control characters escaped in the user and the password, and
  // `http://:password@@host` whose password `password@` was then hidden in `username:password@host`.
  await keeps("HttpUrlTest.kt", '      "http://a%0D%0A%0C%09%20b:c%0D%0A%0C%09%20d@host" +\n');
  await keeps(
    "HttpUrlTest.kt",
    [
      '    val both = parse("http://username:password@host/a/b#fragment")',
      '    assertThat(parse("http://:password@@host/path").encodedPassword)',
      "",
    ].join("\n"),
  );
  await redactsValue("url = https://bob:Xk9%2FmP2qL7@example.com/\n", "Xk9%2FmP2qL7", "a.txt");
});

Deno.test("redactText() hides a found value's repeats only where no word touches them", async () => {
  // A password that ends in a mark, found once, and the same characters at the start of a longer
  // word elsewhere in the file: that word is not the password.
  const text = "DB_PASSWORD='S3cr3t!x9@'\nurl: http://S3cr3t!x9@host/\nagain: S3cr3t!x9@\n";
  const out = (await redactText(text, "a.txt")).text;
  assert.ok(out.includes("http://S3cr3t!x9@host/"), out);
  assert.ok(!out.includes("again: S3cr3t!x9@\n"), out);
});

Deno.test("redactText() reads a form body's escaped blanks before it judges a password", async () => {
  // tokio-rs/axum's raw_form.rs: `password=secure%20password` is two words of a test's form.
  await keeps(
    "raw_form.rs",
    '        check_body(b"username=user&password=secure%20password").await;\n',
  );
  await redactsValue(
    'body = "username=user&password=my%20pass%20w0rd9"\n',
    "my%20pass%20w0rd9",
    "a.rs",
  );
});

Deno.test("redactText() keeps a lockfile's package entry whose package is named like a token", async () => {
  // GoogleCloudPlatform/microservices-demo's package-lock.json: the `gtoken` package's source and
  // checksum read as a map of keys under a token's name.
  await keeps(
    "package-lock.json",
    [
      '{"dependencies": {',
      '  "gtoken": {',
      '    "version": "7.1.0",',
      '    "resolved": "https://registry.npmjs.org/gtoken/-/gtoken-7.1.0.tgz",',
      '    "integrity": "sha512-pCcEwRi+TKpMlxAQObHDQ56KawURgyAf6jtIY046fJ5tIv3zDe/LEIubckAO8fj6JnAxLdmWkUfNyulQ2iKdEw=="',
      "  }",
      "}}",
      "",
    ].join("\n"),
  );
  // A map of tokens is still read.
  await redactsValue(
    '{"tokens": {\n  "deploy": "Qm7vX2pL9wKd4TQm7vX2pL9wKd4T"\n}}\n',
    "Qm7vX2pL9wKd4TQm7vX2pL9wKd4T",
    "a.json",
  );
});
