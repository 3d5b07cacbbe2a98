// False positives found by reading every redaction of prometheus-community/helm-charts by hand
// (bench/README.md, "False positives in five more outside trees"): a Secret object's name under a
// key that says so, and a chart's Secret template that only references values.
import assert from "node:assert/strict";
import { redactText } from "../../pipeline/secrets.ts";
import { keeps, redactsValue } from "./_redacts.ts";

Deno.test("redactText() keeps the name of a Secret object under existingSecret and its kin", async () => {
  await keeps("values.yaml", 'server:\n  configFromSecret: "prometheus-config"\n');
  await keeps("README.md", '```yaml\nmysql:\n  existingSecret: "my-data-source"\n```\n');
  await keeps("values.yaml", "auth:\n  existingSecretName: my-db-credentials\n");
  await keeps("values.yaml", "tls:\n  secretName: grafana-tls\n");
  // A password's shape under the same keys, or an object's name under a secret's own key, is
  // still redacted.
  await redactsValue('  existingSecret: "Qm7vX2pL9wKd4T"\n', "Qm7vX2pL9wKd4T", "values.yaml");
  await redactsValue('  clientSecret: "prometheus-config"\n', "prometheus-config", "values.yaml");
});

Deno.test("redactText() keeps a chart's Secret template whose block only references values", async () => {
  // prometheus-mysql-exporter's templates/secret-config.yaml writes a client's config file.
  const template = [
    "apiVersion: v1",
    "kind: Secret",
    "type: Opaque",
    "stringData:",
    '  {{ template "exporter.secretKey" . }}: |',
    "      [client]",
    "      host={{ .Values.mysql.host }}",
    "      user={{ .Values.mysql.user }}",
    "      {{- if .Values.mysql.pass }}",
    "      password={{ .Values.mysql.pass }}",
    "      {{- end }}",
    "",
  ].join("\n");
  await keeps("templates/secret-config.yaml", template);
  // The same block with a password written into it is redacted.
  const written = template.replace("{{ .Values.mysql.pass }}", "Qm7vX2pL9wKd4T");
  const out = (await redactText(written, "templates/secret-config.yaml")).text;
  assert.ok(!out.includes("Qm7vX2pL9wKd4T"), out);
});
