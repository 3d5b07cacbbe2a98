// review23's attacks on the encoded-secret rule (base64 in a YAML `data:` / `binaryData:` map read
// decoded): decoded text that is UTF-8, maps written with a comment or as a list item, base64
// wrapped with a short last line or as a plain value's lines, values longer than 64 KB; and the
// look-alikes that stay.
import assert from "node:assert/strict";
import { redactText } from "../../pipeline/_scan.ts";
import { kept, redactsValue } from "./_redacts.ts";

const PW = "Qx7vLm2Rk9!Tz";
const ENV = `DB_HOST=db\nDB_PASSWORD=${PW}\n`;

/** Base64 of `text`'s UTF-8 bytes. */
function base64(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)));
}

/** `encoded` cut into lines of `width`, each after `indent`. */
function wrap(encoded: string, width: number, indent: string): string {
  return encoded.match(new RegExp(`.{1,${width}}`, "g"))!.join("\n" + indent);
}

Deno.test("decoded text of UTF-8 (a letter beyond ASCII, a BOM) is read", async () => {
  const accented = base64(`# Configuración\n${ENV}`);
  await redactsValue(`data:\n  app.env: ${accented}\n`, accented, "cm.yaml");
  const bom = base64(`\ufeff${ENV}`);
  await redactsValue(`binaryData:\n  app.env: ${bom}\n`, bom, "cm.yaml");
});

Deno.test("a map with a comment after it, or a list item's, is read", async () => {
  const env = base64(ENV);
  await redactsValue(`data: # the app's settings\n  app.env: ${env}\n`, env, "cm.yaml");
  await redactsValue(`items:\n- data:\n    app.env: ${env}\n`, env, "list.yaml");
  await redactsValue(`secrets:\n  - binaryData:\n      app.env: ${env}\n`, env, "values.yaml");
});

Deno.test("wrapped base64 is redacted whole, its short last line too", async () => {
  const env = base64(`DB_HOST=db\nDB_PASSWORD=${PW}Zq\n`); // its last line of 16: 4 characters
  for (const block of ["|", ">", "|-"]) {
    const wrapped = wrap(env, 16, "    ");
    await redactsValue(`data:\n  app.env: ${block}\n    ${wrapped}\n`, wrapped, "cm.yaml");
  }
  // a plain value over several lines, deeper than its key
  const plain = wrap(env, 20, "    ");
  await redactsValue(`data:\n  app.env: ${plain}\nkind: ConfigMap\n`, plain, "cm.yaml");
});

Deno.test("a value longer than 64 KB is redacted whole, not its first 64 KB", async () => {
  const env = base64("# padding\n".repeat(7000) + ENV);
  await redactsValue(`data:\n  app.env: ${env}\n`, env, "cm.yaml");
  // a Secret's value (every value of its data redacted) that is not base64
  const value = "x" + env;
  await redactsValue(`kind: Secret\ndata:\n  app.env: ${value}\n`, value, "secret.yaml");
});

Deno.test("UTF-8 public text, binary bytes and invalid base64 stay", async () => {
  await kept(`data:\n  app.conf: ${base64("# Configuración\nlisten 8080\n")}\n`, "cm.yaml");
  await kept(`data:\n  a.bin: ${base64(`\x00\x01${ENV}`)}\n`, "cm.yaml");
  await kept(`data:\n  a.bin: ${btoa("\xff\xfe\xfd" + ENV)}\n`, "cm.yaml");
  await kept(`data: # the app's settings\n  app.env: QUFBQUFBQUFBQUFBQUFBQUFBQUFB=\n`, "cm.yaml");
});

Deno.test("the redaction covers the whole block: nothing decodable is left", async () => {
  const env = base64(`DB_HOST=db\nDB_PASSWORD=${PW}Zq\n`);
  const text = `data:\n  app.env: >\n    ${wrap(env, 16, "    ")}\nkind: ConfigMap\n`;
  const out = (await redactText(text, "cm.yaml")).text;
  // (a marker on each of the block's lines: the document keeps its lines)
  const markers = wrap(env, 16, "    ").split("\n").map(() => "    [REDACTED:encoded-secret]");
  assert.equal(out, `data:\n  app.env: >\n${markers.join("\n")}\nkind: ConfigMap\n`);
});
