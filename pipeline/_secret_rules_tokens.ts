/**
 * The rules for tokens of a known shape (`secret_rules.ts` is the public face): each starts at a
 * provider's prefix (`AKIA`, `ghp_`, `xoxb-`, `sk_live_`, `eyJ`, …) and reads a bounded run of
 * the token's characters.
 *
 * @module
 */

import {
  B62,
  B64URL,
  BASE64_RUN,
  fewCharacters,
  isPlaceholder,
  looksRandom,
  runEnd,
  type SecretShape,
  token,
  TOKEN_RUN,
} from "./_secret_rules_common.ts";

/** A token, not a placeholder of one (`ghp_xxxx…`, `AIzaaaaa…`): see `fewCharacters`. */
const notPlaceholder = (value: string) => !fewCharacters(value);

/** A Twilio account SID (`AC…`) or API key SID (`SK…`). */
const TWILIO_SID = /(?<![A-Za-z0-9])(?:AC|SK)[0-9a-f]{32}/g;
/**
 * What follows a quoted SID when the next argument is its secret: the SID's closing quote, a
 * `,`, and 32 letters and digits in quotes (an account's auth token is hex, an API key's secret
 * base62), as Twilio's clients take them (`Client("AC…", "…")`, `twilio('AC…', '…')`).
 */
const TWILIO_SECRET_AFTER = /\\?["'][ \t]{0,16},\s{0,64}\\?["'](?<v>[A-Za-z0-9]{32})\\?["']/dy;

/** Every Twilio SID, and the secret passed right after one (see {@linkcode TWILIO_SECRET_AFTER}). */
function findTwilio(text: string): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  TWILIO_SID.lastIndex = 0;
  for (let m = TWILIO_SID.exec(text); m; m = TWILIO_SID.exec(text)) {
    // to the end of its run (a SID with more after it, `AC…-prod`), the search on after it
    const end = runEnd(TOKEN_RUN, text, m.index + m[0].length);
    TWILIO_SID.lastIndex = end;
    // a SID's stand-in: its prefix, then few characters (`AC000…`, `ACxxxx…` in a page)
    if (fewCharacters(m[0].slice(2))) continue;
    out.push({ start: m.index, end });
    TWILIO_SECRET_AFTER.lastIndex = end;
    const after = TWILIO_SECRET_AFTER.exec(text);
    if (after && /[0-9]/.test(after.groups!.v) && !fewCharacters(after.groups!.v)) {
      const [start, stop] = after.indices!.groups!.v;
      out.push({ start, end: stop });
    }
  }
  return out;
}

/** The provider tokens of the rule table, in its order (see `SECRET_SHAPES`). */
export const PROVIDER_TOKENS: SecretShape[] = [
  {
    id: "aws-access-key-id",
    gate: "A",
    label: "aws",
    kind: "AWS access key id (`AKIA…`, `ASIA…`)",
    hints: ["AKIA", "ASIA", "ABIA", "ACCA", "A3T"],
    pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}/g,
    run: TOKEN_RUN,
  },
  {
    id: "google-api-key",
    gate: "A",
    label: "google-api-key",
    kind: "Google / GCP API key (`AIza…`)",
    hints: ["AIza"],
    pattern: /(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}/g,
    run: TOKEN_RUN,
  },
  {
    id: "atlassian-token",
    gate: "A",
    label: "atlassian",
    kind: "Atlassian API and Bitbucket tokens (`ATATT3…`, `ATCTT3…`, `ATBB…`)",
    hints: ["ATATT3", "ATCTT3", "ATBB"],
    pattern: /(?<![A-Za-z0-9_-])(?:AT[AC]TT3[A-Za-z0-9_=-]{150,400}|ATBB[A-Za-z0-9_-]{28,64})/g,
    run: /[A-Za-z0-9_=-]*/y,
    accept: notPlaceholder,
  },
  {
    id: "jfrog-key",
    gate: "A",
    label: "jfrog",
    kind: "JFrog Artifactory API key (`AKCp…`)",
    hints: ["AKCp"],
    pattern: /(?<![A-Za-z0-9])AKCp[A-Za-z0-9]{69}/g,
    run: TOKEN_RUN,
    accept: notPlaceholder,
  },
  {
    id: "azure-storage-key",
    gate: "K",
    label: "azure",
    kind: "Azure storage account key / SAS key in a connection string (`AccountKey=…`)",
    hints: ["AccountKey=", "AccessKey="],
    pattern: /(?<=(?:AccountKey|SharedAccessKey|AccessKey)=)(?<v>[A-Za-z0-9+/]{40,100}={0,2})/g,
    run: BASE64_RUN,
  },
  {
    id: "hashicorp-vault-token",
    gate: "v",
    label: "hashicorp-vault",
    kind: "HashiCorp Vault tokens of 1.10 on (`hvs.…`, `hvb.…`, `hvr.…`), with no name around them",
    hints: ["hvs.", "hvb.", "hvr."],
    pattern: /(?<![A-Za-z0-9_.-])hv[sbr]\.[A-Za-z0-9_-]{24,512}/g,
    run: TOKEN_RUN,
    accept: (value) => /[0-9]/.test(value) && /[A-Z]/.test(value) && notPlaceholder(value),
  },
  {
    id: "cloud-access-key-id",
    gate: "A",
    label: "cloud-access-key",
    kind: "Alibaba Cloud (`LTAI…`) and Tencent Cloud (`AKID…`) access key ids",
    hints: ["LTAI", "AKID"],
    // (an `AKID…` with `_` or `-` among its 32, as logs and URL-safe copies write it, when it
    // reads as random: `AKID_SOME_CONSTANT_NAME_…` is a name)
    pattern: /(?<![A-Za-z0-9])(?:LTAI[A-Za-z0-9]{12,20}|AKID[A-Za-z0-9_-]{32})/g,
    run: TOKEN_RUN,
    accept: (value) =>
      /[0-9]/.test(value) && notPlaceholder(value) &&
      (!/[_-]/.test(value) || looksRandom(value)),
  },
  {
    // A SAS URL or connection string's signature: an HMAC-SHA256 in base64, percent-encoded in a
    // URL (`%2B`, `%2F`, `%3D`), after `?sig=`, `&sig=` or `;sig=`.
    id: "azure-sas-token",
    gate: "g",
    label: "azure",
    kind: "Azure shared access signature (`…&sig=…` of a SAS URL or connection string)",
    hints: ["sig="],
    pattern: /(?<=[?&;]sig=)(?<v>(?:[A-Za-z0-9+/]|%2[BbFf]){42,120}(?:=|%3[Dd]){0,2})/g,
    run: /(?:[A-Za-z0-9+/=]|%[0-9A-Fa-f]{2})*/y,
    accept: notPlaceholder,
  },
  {
    id: "azure-client-secret",
    gate: "~",
    label: "azure",
    kind: "Azure AD client secret (`…8Q~…`)",
    hints: ["Q~"],
    pattern: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}/g,
    // (a `.` only before more of it: a full stop after the secret is the sentence's)
    run: /(?:[A-Za-z0-9_~-]|\.(?=[A-Za-z0-9_~-]))*/y,
  },
  {
    id: "github-token",
    gate: "g",
    label: "github",
    kind: "GitHub token (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, fine-grained `github_pat_`)",
    hints: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
    pattern: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9_]{36,255}|github_pat_[A-Za-z0-9_]{22,255})/g,
    run: TOKEN_RUN,
  },
  {
    id: "gitlab-token",
    gate: "g",
    label: "gitlab",
    kind: "GitLab token (`glpat-`, `glptt-`, `gldt-`, `glrt-`, `glsoat-`, `glcbt-`, …)",
    hints: ["glpat-", "glptt-", "gldt-", "glrt-", "glsoat-", "glcbt-", "glimt-", "glft-", "gloas-"],
    pattern: token("gl(?:pat|ptt|dt|rt|soat|cbt|imt|ft|ffct|oas|agent)-", B64URL, 20),
    run: TOKEN_RUN,
    // The prefixes added in 2026-11 skip stand-ins (`glrt-xxxx…`); the first three redact them, as before.
    accept: (value) => /^gl(?:pat|ptt|dt)-/.test(value) || notPlaceholder(value),
  },
  {
    id: "slack-token",
    gate: "x",
    label: "slack",
    kind: "Slack token (`xoxb-`, `xoxp-`, `xoxa-`, `xoxr-`, `xoxs-`, `xoxe-`, `xapp-`)",
    hints: ["xox", "xapp-"],
    pattern: token("(?:xox[abposre]|xapp)-", "[A-Za-z0-9-]", 10),
    run: TOKEN_RUN,
    // words joined after the prefix, no digit: a stand-in (`xoxb-your-token-here`)
    accept: (value) => !/^[a-z]{4}-[A-Za-z]{1,32}(?:-[A-Za-z]{1,32}){1,8}$/.test(value),
  },
  {
    id: "slack-webhook",
    gate: ".",
    label: "slack",
    kind: "Slack webhook URL (`https://hooks.slack.com/services/…`)",
    hints: ["hooks.slack.com"],
    pattern:
      /https?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{20,255}/g,
    run: /[A-Za-z0-9_/-]*/y,
  },
  {
    id: "stripe-key",
    gate: "_",
    label: "stripe",
    kind: "Stripe key (`sk_live_`, `rk_live_`, `sk_test_`, `rk_test_`, `whsec_`)",
    hints: ["k_live_", "k_test_", "whsec_"],
    pattern: token("(?:[sr]k_(?:live|test)_|whsec_)", B62, 20),
    run: TOKEN_RUN,
  },
  {
    id: "sendgrid-key",
    gate: "S",
    label: "sendgrid",
    kind: "SendGrid API key (`SG.…`)",
    hints: ["SG."],
    pattern: /(?<![A-Za-z0-9_-])SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}/g,
    run: TOKEN_RUN,
  },
  {
    id: "twilio-key",
    gate: "AS",
    label: "twilio",
    kind: "Twilio account SID and API key SID (`AC…`, `SK…`; auth tokens under a Twilio name, " +
      'and the argument after a quoted SID: `Client("AC…", "…")`)',
    hints: ["AC", "SK"],
    // What it matches (the hint test reads it); `find` adds the secret quoted after a SID.
    pattern: TWILIO_SID,
    find: findTwilio,
  },
  {
    id: "openrouter-key",
    gate: "-",
    label: "openrouter-key",
    kind: "OpenRouter key (`sk-or-v1-…`)",
    hints: ["sk-or-"],
    pattern: /\bsk-or-v1-[A-Za-z0-9]{32,255}/g,
    run: TOKEN_RUN,
  },
  {
    id: "anthropic-key",
    gate: "-",
    label: "anthropic-key",
    kind: "Anthropic key (`sk-ant-…`)",
    hints: ["sk-ant-"],
    pattern: /\bsk-ant-[A-Za-z0-9_-]{20,512}/g,
    run: TOKEN_RUN,
  },
  {
    id: "openai-key",
    gate: "-",
    label: "openai-key",
    kind:
      "OpenAI key (`sk-proj-`, `sk-svcacct-`, `sk-admin-`, `sk-None-`, legacy `sk-…`, any `sk-…` with " +
      "OpenAI's marker `T3BlbkFJ`)",
    hints: ["sk-"],
    pattern:
      /\bsk-(?:(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,255}|[A-Za-z0-9]{32,255}|[A-Za-z0-9_-]{0,128}?T3BlbkFJ[A-Za-z0-9_-]{8,255})/g,
    run: TOKEN_RUN,
  },
  {
    id: "npm-token",
    gate: "_",
    label: "npm",
    kind: "npm token (`npm_…`, `_authToken=` in `.npmrc`)",
    hints: ["npm_"],
    pattern: token("npm_", B62, 36),
    run: TOKEN_RUN,
  },
  {
    id: "npm-auth-token",
    gate: "_",
    label: "npm",
    kind: "npm token (`npm_…`, `_authToken=` in `.npmrc`)",
    hints: ["_authToken="],
    pattern: /_authToken=(?<v>[A-Za-z0-9_\-.+/=]{8,512})(?![^\s"'])/g,
    accept: (value) => !isPlaceholder(value),
  },
  {
    id: "pypi-token",
    gate: "-",
    label: "pypi",
    kind: "PyPI token (`pypi-AgE…`)",
    hints: ["pypi-AgE"],
    pattern: token("pypi-AgE", B64URL, 50, 1024),
    run: TOKEN_RUN,
  },
  {
    id: "nuget-key",
    // (given to `nuget push -k`, `--api-key`, `-ApiKey`: the options' families; under a name, the
    // named rules' token)
    gate: "to",
    label: "nuget",
    kind: "NuGet API key (`oy2` and 43 lower case letters and digits)",
    hints: ["oy2"],
    pattern: /(?<![A-Za-z0-9_-])oy2[a-z0-9]{43}/g,
    run: TOKEN_RUN,
    accept: notPlaceholder,
  },
  {
    id: "pkcs12-base64",
    gate: "A",
    label: "private-key",
    kind: "A PKCS #12 file (`.pfx`, `.p12`: a private key and its certificate) in base64 " +
      "(`MII…IBAzCC…`, `MIACAQMwgA…`)",
    hints: ["IBAzCC", "MIACAQMw"],
    pattern:
      /(?<![A-Za-z0-9+/])(?:MII[A-Za-z0-9+/]{2}[AQgw]IBAzCC|MIACAQMwgA)[A-Za-z0-9+/]{40,4096}/g,
    run: BASE64_RUN,
  },

  {
    id: "jwt",
    gate: "J",
    label: "jwt",
    // (after a percent-escape too: `Bearer%20eyJ…`, `token%3DeyJ…` in a URL)
    kind: "JSON Web Token (`eyJ….eyJ….…`)",
    hints: ["eyJ"],
    pattern:
      /(?<!(?<!%[0-9A-Fa-f])[A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,4096}\.[A-Za-z0-9_-]{8,1024}/g,
    run: TOKEN_RUN,
  },
];

/** dotenv-vault's key heads and their 64 hex digits: `me_…` (`DOTENV_ME`), `key_…` (`DOTENV_KEY`). */
const DOTENV_VAULT = /(?:me|key)_(?<![A-Za-z0-9_-](?:me|key)_)[0-9a-f]{64}/g;

/**
 * dotenv-vault's keys (`DOTENV_ME=me_…`, `DOTENV_KEY`'s `dotenv://:key_…@dotenv.org/…`), each to
 * the end of its run of token characters. (A rule of code, not a token's pattern in the table:
 * the tests that draw a sample of each token pattern in turn draw the others' as before.)
 */
function findDotenvVaultKeys(text: string): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  // (in a text that names them, `DOTENV_ME`, `DOTENV_KEY…`: `me_` and `key_` are in most texts)
  if (!text.includes("OTENV_")) return out;
  DOTENV_VAULT.lastIndex = 0;
  for (const m of text.matchAll(DOTENV_VAULT)) {
    const start = m.index!;
    const end = runEnd(TOKEN_RUN, text, start + m[0].length);
    if (!fewCharacters(text.slice(start + 3, end))) out.push({ start, end });
  }
  return out;
}

/** dotenv-vault's keys: see {@linkcode findDotenvVaultKeys}. */
export const DOTENV_VAULT_KEY: SecretShape = {
  id: "dotenv-vault-key",
  label: "dotenv",
  kind: "dotenv-vault's keys: `DOTENV_ME=me_…` and `DOTENV_KEY`'s `key_…`, each 64 hex digits",
  gate: "D", // (`textHints` finds `me_` and `key_` before 64 hex digits)
  hints: [],
  find: findDotenvVaultKeys,
};
