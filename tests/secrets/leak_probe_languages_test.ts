// A leak probe over 46 placements of one password in the languages of the outside trees audited
// in bench/README.md ("False positives in five more outside trees"): the three it found leaking.
import { kept, redactsValue } from "./_redacts.ts";

const PASSWORD = "Qm7vX2pL9wKd4T";

Deno.test("redactText() hides the password given to PHP's PDO after a DSN in a variable", async () => {
  await redactsValue(`$pdo = new PDO($dsn, 'root', '${PASSWORD}');\n`, PASSWORD, "db.php");
  await redactsValue(
    `    $this->pdo = new \\PDO($config['dsn'], $user, "${PASSWORD}", $options);\n`,
    PASSWORD,
    "Db.php",
  );
});

Deno.test("redactText() hides the password of Rust's Credentials::new, owned copies too", async () => {
  // lettre's SMTP credentials, as its docs write them.
  await redactsValue(
    `    let creds = Credentials::new("smtp_user".to_owned(), "${PASSWORD}".to_owned());\n`,
    PASSWORD,
    "main.rs",
  );
  await redactsValue(
    `    let creds = Credentials::new("admin", "${PASSWORD}");\n`,
    PASSWORD,
    "main.rs",
  );
});

Deno.test("redactText() hides the literal an Elixir function named for a secret returns", async () => {
  await redactsValue(`  def api_key, do: "${PASSWORD}${PASSWORD}"\n`, PASSWORD + PASSWORD, "a.ex");
  await redactsValue(
    `  defp password do\n    "${PASSWORD}"\n  end\n`,
    PASSWORD,
    "config.exs",
  );
});

Deno.test("redactText() hides a secret given as a default by a logical assignment", async () => {
  // A second probe, of 57 placements in settings files, commands and code: the one it leaked.
  await redactsValue(
    `process.env.API_KEY ||= "${PASSWORD}${PASSWORD}";\n`,
    PASSWORD + PASSWORD,
    "a.js",
  );
  await redactsValue(`options.password ??= "${PASSWORD}";\n`, PASSWORD, "a.ts");
  await redactsValue(`  @api_key ||= "${PASSWORD}${PASSWORD}"\n`, PASSWORD + PASSWORD, "client.rb");
  // A default that is no secret (a stand-in, a name that is none) stays.
  await kept(`options.password ||= "password";\nconfig.timeout ||= "30s";\n`, "a.js");
});
