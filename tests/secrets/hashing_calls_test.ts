import assert from "node:assert/strict";
import { redactText } from "../../pipeline/secrets.ts";
import { prng } from "../_helpers.ts";

/**
 * A password given in plain text to a call that hashes it: a seed's, a fixture's or a factory's
 * user (probe44's sweep left Devise's `Encryptor.digest(User, '…')` in rubyforgood's seeds). The
 * call's own name says what its argument is, as a login's does; `{P}` is the password.
 */
const FORMS: Array<[string, string]> = [
  ["db/seeds.rb", "u.encrypted_password = Devise::Encryptor.digest(User, '{P}')\n"],
  ["spec/factories/users.rb", 'password_digest { BCrypt::Password.create("{P}") }\n'],
  ["app/fixtures.py", 'user.password = make_password("{P}")\n'],
  ["database/seeders/UserSeeder.php", "'password' => password_hash('{P}', PASSWORD_DEFAULT),\n"],
  ["app/seed.py", 'admin.pw_hash = generate_password_hash("{P}")\n'],
  ["tests/conftest.py", 'hashed = bcrypt.hashpw(b"{P}", bcrypt.gensalt())\n'],
  ["seed.js", 'const hash = await bcrypt.hash("{P}", 10);\n'],
  ["seed.ts", "const hash = bcrypt.hashSync('{P}', 8);\n"],
  ["seed.mjs", 'const h = await argon2.hash("{P}");\n'],
  ["store_test.go", 'h, _ := bcrypt.GenerateFromPassword([]byte("{P}"), bcrypt.DefaultCost)\n'],
];

/** A password of words, digits and marks, as people choose one. */
function password(random: () => number): string {
  const words = ["Winter", "harbor", "Ember", "lantern", "Opal", "mirror", "Kingfisher", "quartz"];
  const pick = () => words[Math.floor(random() * words.length)];
  const marks = "!#-_.@";
  return pick() + marks[Math.floor(random() * marks.length)] + pick() +
    String(Math.floor(random() * 90) + 10);
}

Deno.test("redactText() redacts a password given in plain text to a call that hashes it", async () => {
  const random = prng(44);
  for (let round = 0; round < 4; round++) {
    for (const [path, form] of FORMS) {
      const value = password(random);
      const text = form.replace("{P}", value);
      const result = await redactText(text, path);
      assert.ok(!result.text.includes(value), `${path}: ${result.text}`);
      // the call and its other arguments stay
      assert.equal(result.text.split("\n").length, text.split("\n").length, path);
      assert.ok(result.text.includes("[REDACTED:"), path);
    }
  }
});

Deno.test("redactText() keeps a hashing call given a variable, a stand-in or nothing, and a filter's scheme", async () => {
  const kept = [
    "BCrypt::Password.create(params[:password])\n",
    "make_password(password)\n",
    "password_hash($password, PASSWORD_DEFAULT)\n",
    "await bcrypt.hash(req.body.password, 10)\n",
    'make_password("password")\n',
    'make_password("")\n',
    'generate_password_hash("changeme")\n',
    "bcrypt.GenerateFromPassword([]byte(pw), cost)\n",
    "Devise::Encryptor.digest(User, password)\n",
    // Ansible's filter: its argument is the hash's scheme (the password before the `|` is the
    // password rules' to judge)
    "hash: \"{{ user_pw | password_hash('sha512') }}\"\n",
  ];
  for (const text of kept) {
    const result = await redactText(text, "seed.rb");
    assert.equal(result.text, text);
  }
});
