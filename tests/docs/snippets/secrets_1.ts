// A ts block of docs/secrets.md, copied by tests/docs/_snippets.ts: do not edit.
// slop.config.ts
import { defineConfig } from "../../../config.ts"; // path or URL to slop's config.ts

export default defineConfig({
  files: ["src/**"],
  secrets: {
    // Exit 1 without writing anything when a secret is found (also: --fail-on-secret).
    failOnSecret: true,
    // Your own shapes: name -> regular expression source, redacted as [REDACTED:<name>].
    rules: {
      "acme-id": "ACME-[0-9]{8}",
      // With a capture group, only group 1 is redacted: the name stays.
      pin: "pin=([0-9]{4})",
    },
  },
});
