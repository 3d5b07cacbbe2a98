// A leak probe over 46 placements of one password in the languages of the outside trees audited
// in bench/README.md ("False positives in five more outside trees"): the three it found leaking.
import { redactsValue } from "./_redacts.ts";

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
