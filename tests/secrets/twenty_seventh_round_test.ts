// The twenty-seventh leak hunt, by class: device consoles' and home devices' secrets (Tasmota's
// commands, Tuya's local keys, keys given to a device's client after its address, tokens in an
// `/api/` path or a user's name), notebook outputs printed apart from their names and printed
// tables' secret columns, names and values written as siblings, password words of other
// languages before `:=` or a type, curl's joined `-u`, headers' `-Key` options, RSpec's `let`, a
// proxy's `user:password` list, dotenv-vault's keys, `id:secret` tokens, tables of secrets; and
// the look-alikes of each that stay (search-only keys, a Nix cache's public key among them).
import assert from "node:assert/strict";
import { redactText } from "../../pipeline/_scan.ts";
import { kept, redactsValue } from "./_redacts.ts";

const PW = "Qx7vLm2Rk9!Tz";
const TOKEN = "Xk29fjQ02aLpZ8wq7Rt5Ym3nB4vHs6";
const HEX = "50f71c1e122a9cd5efdf441ad78d51c0";

Deno.test("a device console's password command is redacted", async () => {
  await redactsValue(`Backlog MqttHost 10.0.0.2; MqttPassword ${PW}; Topic plug\n`, PW, "t.txt");
  await redactsValue(`Backlog SSID1 home; Password1 ${PW}\n`, PW, "tasmota.txt");
  await redactsValue(`WebPassword ${PW}\n`, PW, "notes.md");
  await kept("Password reset\n", "notes.md");
  await kept("type Req struct {\n\tOldPassword *string\n\tNewPassword []byte\n}\n", "req.go");
  await kept("Backlog MqttPassword 0; Restart 1\n", "notes.md");
});

Deno.test("a home device's local key is redacted", async () => {
  const key = "e6t!NIwB;h05pV<3";
  await redactsValue(`local_key: ${key}\n`, key, "configuration.yaml");
  await redactsValue(`{"localKey": "${key}"}\n`, key, "entries.json");
  await redactsValue(
    `[{"name": "Lamp", "id": "bf410fdc55aa6664708d38", "key": "${key}", "ip": "10.0.0.5"}]\n`,
    key,
    "devices.json",
  );
  await redactsValue(`d = tinytuya.OutletDevice('bf41', '10.0.0.9', '${key}')\n`, key, "plug.py");
  await redactsValue(`vac = RoborockVacuum("10.0.0.11", "${HEX}")\n`, HEX, "vacuum.py");
  await kept(`{"key": "Enter", "ip": "10.0.0.5"}\n`, "keys.json");
  await kept(`local_key: {{ tuya_local_key }}\n`, "configuration.yaml");
  await kept(`sock.connect("10.0.0.1", "app-server-2024")\n`, "net.py");
});

Deno.test("a token in an /api/ path or a user's name is redacted", async () => {
  const hue = "WsH1pGjhhTSDzFjvrnMaMDpKmMiWhVNaegHAEci4";
  await redactsValue(`curl http://10.0.0.2/api/${hue}/lights\n`, hue, "hue.sh");
  await redactsValue(`bridge = Bridge("10.0.0.2", username="${hue}")\n`, hue, "lights.py");
  await redactsValue(`{"10.0.0.2": {"username": "${hue}"}}\n`, hue, ".python_hue");
  await redactsValue(`curl -H "hue-application-key: ${hue}" https://h\n`, hue, "hue.sh");
  await kept("GET /api/v1/users/ListAllCustomersWithOrders/\n", "api.md");
  await kept(`username: "MyCompanyServiceAccountUser2024"\n`, "config.yml");
  await kept(`username: 0486edb9-358e-e04b-1501-a5a12bae6d62\n`, "config.yml");
});

Deno.test("a header option's secret is redacted in --header's long form too", async () => {
  // (the twenty-eighth round: `-H` was read, `--header` and `--header=` were not)
  const hue = "WsH1pGjhhTSDzFjvrnMaMDpKmMiWhVNaegHAEci4";
  const sid = "Zx81kQp0aL5tR2mW9nB4";
  for (const option of ["-H ", "--header ", "--header="]) {
    await redactsValue(`curl ${option}"hue-application-key: ${hue}" https://h\n`, hue, "hue.sh");
    await redactsValue(`curl -s ${option}'X-Device-Token: ${hue}' https://h\n`, hue, "a.sh");
    await redactsValue(`curl ${option}'Cookie: sid=${sid}; theme=dark' https://h\n`, sid, "c.sh");
    await kept(`curl ${option}"X-Api-Key: $API_KEY" https://h\n`, "hue.sh");
  }
});

/** A notebook of one code cell: its source and its outputs' JSON. */
const notebook = (source: string, outputs: string) =>
  `{"cells": [{"cell_type": "code", "outputs": [${outputs}], "source": ${
    JSON.stringify([source])
  }}]}\n`;
const stream = (t: string) =>
  `{"output_type": "stream", "name": "stdout", "text": ${JSON.stringify([t])}}`;
const result = (t: string) =>
  `{"output_type": "execute_result", "data": {"text/plain": ${JSON.stringify([t])}}}`;

Deno.test("a notebook's output printed apart from its name is redacted", async () => {
  await redactsValue(notebook("os.environ.get('DB_PASSWORD')", result(`'${PW}'`)), PW, "a.ipynb");
  await redactsValue(notebook("token = login()\ntoken", result(`'${TOKEN}'`)), TOKEN, "a.ipynb");
  await redactsValue(notebook("print(api_key)", stream(`${TOKEN}\n`)), TOKEN, "a.ipynb");
  await redactsValue(
    notebook('print(f"using {key}")', stream(`using ${TOKEN}\n`)),
    TOKEN,
    "a.ipynb",
  );
  const table = `   id   name  api_token\n0   1  alice  ${HEX}\n`;
  await redactsValue(notebook("print(df)", stream(table)), HEX, "a.ipynb");
  await redactsValue(notebook("df.head()", result(table)), HEX, "a.ipynb");
  await kept(notebook("print(model_name)", stream("all-MiniLM-L6-v2-sentence\n")), "a.ipynb");
  await kept(notebook("token_type", result("'Bearer'")), "a.ipynb");
  await kept(
    notebook("df", result("   id                              uuid\n0   1  0486edb9-358e-e04b\n")),
    "a.ipynb",
  );
});

Deno.test("a name and its value written as siblings are redacted", async () => {
  await redactsValue(
    `set_sensitive {\n  name  = "adminPassword"\n  value = "${PW}"\n}\n`,
    PW,
    "helm.tf",
  );
  await redactsValue(`data:\n  - key: /db/password\n    value: "${PW}"\n`, PW, "es.yaml");
  await kept(`set {\n  name  = "replicaCount"\n  value = "3"\n}\n`, "helm.tf");
  await kept(`  - key: /db/password\n    value: "{{ .Values.password }}"\n`, "es.yaml");
});

Deno.test("passwords named in other languages before := or a type are redacted", async () => {
  await redactsValue(`lösenord := "${PW}"\n`, PW, "db.go");
  await redactsValue(`const hasło: string = "${PW}";\n`, PW, "db.ts");
  await redactsValue(`let matKhau = "${PW}";\n`, PW, "db.js");
  await kept(`const hasło: string = "Wpisz hasło";\n`, "labels.ts");
});

Deno.test("commands' and files' smaller shapes are redacted", async () => {
  await redactsValue(`HEALTHCHECK CMD curl -fsu admin:${PW} http://localhost/\n`, PW, "Dockerfile");
  await redactsValue(`  let(:admin_password) { "${PW}" }\n`, PW, "user_spec.rb");
  await redactsValue(`- "traefik.http.middlewares.a.basicauth.users=admin:${PW}"\n`, PW, "c.yml");
  await redactsValue(`(u'iot', p'${PW}')\n`, PW, "mqtt.log");
  const me = "me_8cd5c5d5ec2a93eabc1ee503065c79ba29480263c5b6ee99c0cbb157309e256d";
  await redactsValue(`DOTENV_ME=${me}\n`, me, ".env.me");
  const bot = "1314175474:iHWHvepzxCiBRyD2xmwlmnGdxUg3jPZJ80q";
  await redactsValue(`bot_token = "${bot}"\n`, bot, "config.toml");
  await redactsValue(`INSERT INTO api_keys (id, key) VALUES (7, '${HEX}');\n`, HEX, "dump.sql");
  await redactsValue(`CDK: SecretValue.unsafe_plain_text("${TOKEN}")\n`, TOKEN, "stack.py");
  await kept(`git push -fu origin main:release\n`, "deploy.sh");
  await kept(`INSERT INTO api_keys (id, key) VALUES (7, 'default');\n`, "dump.sql");
  await kept(`- "traefik.http.middlewares.a.basicauth.users=\${TRAEFIK_USERS}"\n`, "c.yml");
});

Deno.test("search-only keys and a Nix cache's public key stay", async () => {
  const search = "6be0576ff61c053d5f9a3225e2a90f76";
  await kept(`NEXT_PUBLIC_ALGOLIA_SEARCH_API_KEY=${search}\n`, ".env");
  await kept(`algolia:\n  search_only_api_key: ${search}\n  index_name: blog\n`, "_config.yml");
  await kept(
    `algolia: {\n  appId: 'R2IYF7ETH7',\n  apiKey: '${search}',\n  indexName: 'docs',\n},\n`,
    "docusaurus.config.js",
  );
  await kept(
    "trusted-public-keys = cache.nixos.org-1:6NCHdD59X431o0gWypbMrAURkbJ16ZPMQFGspcDShjY=\n",
    "nix.conf",
  );
  // (an admin client's key names no search: redacted)
  await redactsValue(`ALGOLIA_ADMIN_API_KEY=${search}\n`, search, ".env");
});

Deno.test("every value of a notebook of many printed secrets is redacted", async () => {
  const cells = Array.from({ length: 3000 }, (_, i) => {
    const token = `Xk29fjQ02aLpZ8wq7Rt5Ym3n${String(i).padStart(6, "0")}`;
    return `{"cell_type": "code", "outputs": [${
      stream(`${token}\n`)
    }], "source": ["print(api_key)"]}`;
  });
  const out = (await redactText(`{"cells": [${cells.join(", ")}]}\n`, "many.ipynb")).text;
  assert.equal(out.split("[REDACTED:").length - 1, 3000);
  assert.ok(!out.includes("Xk29fjQ02aLp"));
});
