/**
 * The rules for providers' tokens that start with a prefix of their own and a separator
 * (`dop_v1_…`, `pplx-…`, `dp.pt.…`, `sntryu_…`, a Telegram bot token's `123456789:…`, a Discord
 * webhook's `…/api/webhooks/…`), one shape each (`secret_rules.ts` is the public face). They
 * are hinted by the separator that ends their prefix (`_`, `-`, `.`), the prefix checked behind it
 * (`PREFIX_GATE`), so a text without any of them runs none of these rules.
 *
 * @module
 */

import {
  BASE64_RUN,
  DOTTED_RUN,
  fewCharacters,
  randomLetters,
  type SecretShape,
  TOKEN_RUN,
} from "./_secret_rules_common.ts";

/** One provider's token: the prefix (a pattern that ends in its separator), then the rest. */
interface Prefixed {
  id: string;
  label: string;
  kind: string;
  /** The prefix, up to and with its separator (a pattern, bounded). */
  head: string;
  /** Literal spellings of the head (for the docs and the hint test). */
  hints: string[];
  /** The rest of the token (a pattern, bounded). */
  rest: string;
  /** What continues the token past its rest (see `SecretShape.run`). @default {TOKEN_RUN} */
  run?: RegExp;
  /** What starts the pattern, before the head. @default {"(?<![A-Za-z0-9_./-])"} */
  before?: string;
  /** What must stand before the head, checked behind it (when `before` is not given). */
  behind?: string;
  /** The hint family, when `TOKEN_GATE` finds it apart (Telegram, Discord). @default {separator} */
  gate?: string;
  /** What the first characters after the head must be, when the head alone is a common word. */
  ahead?: string;
}

const HEX = "[a-f0-9]";
const UUID = `${HEX}{8}-${HEX}{4}-${HEX}{4}-${HEX}{4}-${HEX}{12}`;

/** The tokens, in the order of the table (a merged finding is named by the first). */
const PREFIXED: Prefixed[] = [
  p(
    "1password-service-token",
    "1password",
    "ops_",
    ["ops_eyJ"],
    "eyJ[A-Za-z0-9+/]{100,4096}={0,3}",
    { run: BASE64_RUN },
  ),
  p(
    "1password-secret-key",
    "1password",
    "A3-",
    ["A3-"],
    "[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}",
  ),
  p("adafruit-key", "adafruit", "aio_", ["aio_"], "[A-Za-z0-9]{28}"),
  p("age-secret-key", "age", "AGE-SECRET-KEY-", ["AGE-SECRET-KEY-"], "1[0-9A-Z]{58}"),
  p("alchemy-token", "alchemy", "alcht_", ["alcht_"], "[A-Za-z0-9]{30}"),
  p("apify-token", "apify", "apify_api_", ["apify_api_"], "[A-Za-z0-9_-]{36}"),
  p("bannerbear-key", "bannerbear", "bb_(?:ma|pr)_", ["bb_ma_", "bb_pr_"], `${HEX}{30}`),
  // Braintree's access token: `access_` (a word: `token$production$` or `$sandbox$` first)
  p(
    "braintree-token",
    "braintree",
    "access_",
    ["access_token$"],
    `token\\$(?:production|sandbox)\\$[a-z0-9]{16}\\$${HEX}{32}`,
    { ahead: "token\\$(?:production|sandbox)\\$" },
  ),
  p("buildkite-token", "buildkite", "bkua_", ["bkua_"], "[a-z0-9]{40}"),
  p("circleci-token", "circleci", "CCIPAT_", ["CCIPAT_"], `[A-Za-z0-9]{22}_${HEX}{40}`),
  p("clojars-token", "clojars", "CLOJARS_", ["CLOJARS_"], "[a-z0-9]{60}"),
  p(
    "cloudflare-origin-ca-key",
    "cloudflare",
    "v1\\.0-",
    ["v1.0-"],
    `${HEX}{24}-${HEX}{146}`,
  ),
  p("contentful-token", "contentful", "CFPAT-", ["CFPAT-"], "[A-Za-z0-9_-]{43}"),
  p(
    "defined-networking-key",
    "defined-networking",
    "dnkey-",
    ["dnkey-"],
    "[a-z0-9=_-]{26}-[a-z0-9=_-]{52}",
  ),
  p(
    "digitalocean-token",
    "digitalocean",
    "do[opr]_v1_",
    ["dop_v1_", "doo_v1_", "dor_v1_"],
    `${HEX}{64}`,
  ),
  p(
    "discord-webhook",
    "discord",
    "https?://(?:ptb\\.|canary\\.)?discord(?:app)?\\.com/api/webhooks/",
    ["https://discord.com/api/webhooks/"],
    "[0-9]{17,20}/[A-Za-z0-9_-]{60,68}",
    { ahead: "[0-9]{17}" },
  ),
  p("dependency-track-key", "dependency-track", "odt_", ["odt_"], "[A-Za-z0-9]{32,40}"),
  p(
    "duffel-token",
    "duffel",
    "duffel_",
    ["duffel_test_", "duffel_live_"],
    "(?:test|live)_[A-Za-z0-9_=-]{43}",
    { ahead: "(?:test|live)_" }, // at its first `_`: Stripe's hint takes `_test_`
  ),
  p("hex-sk-key", "api-key", "sk_", ["sk_"], `${HEX}{32}(?:${HEX}{16})?`, {
    ahead: `${HEX}{32}`,
  }),
  p(
    "fcm-server-key",
    "firebase",
    "AAAA[A-Za-z0-9_-]{7}:",
    ["AAAA"],
    "APA91b[A-Za-z0-9_-]{100,300}",
    { ahead: "APA91b" },
  ),
  p(
    "figma-token",
    "figma",
    "fig[dpr]_",
    ["figd_", "figp_", "figr_"],
    "[A-Za-z0-9_-]{38,40}={0,2}",
    { run: BASE64_RUN },
  ),
  p(
    "flutterwave-key",
    "flutterwave",
    "FLW(?:SECK|PUBK)(?:_TEST)?-",
    ["FLWSECK-", "FLWSECK_TEST-", "FLWPUBK_TEST-"],
    "[A-Za-z0-9]{32}-X",
  ),
  p(
    "flyio-token",
    "flyio",
    "fm[12][ar]?_",
    ["fm1r_", "fm1a_", "fm2_"],
    "[A-Za-z0-9+/]{100,4096}={0,3}",
    { run: BASE64_RUN },
  ),
  p("flyio-org-token", "flyio", "fo1_", ["fo1_"], "[A-Za-z0-9_-]{43}"),
  p("frameio-token", "frameio", "fio-u-", ["fio-u-"], "[A-Za-z0-9_=-]{64}"),
  p("google-oauth-secret", "google-oauth", "GOCSPX-", ["GOCSPX-"], "[A-Za-z0-9_-]{28}"),
  p(
    "google-refresh-token",
    "google-oauth",
    "1//",
    ["1//0"],
    "0[A-Za-z0-9_-]{40,512}",
    { ahead: "0[A-Za-z0-9_-]{40}" },
  ),
  p("heroku-token", "heroku", "HRKU-", ["HRKU-"], "AA[A-Za-z0-9_-]{58}"),
  // Asana's personal access tokens: `1/USER:HEX` and `2/USER/APP:HEX` (the digits are ids)
  p(
    "asana-pat",
    "asana",
    "[12]/",
    ["1/", "2/"],
    "[0-9]{10,20}(?:/[0-9]{10,20})?:[0-9a-f]{32}",
    { ahead: "[0-9]{10,20}(?:/[0-9]{10,20})?:[0-9a-f]{32}", before: "(?<![\\w./-])" },
  ),
  p("hubspot-token", "hubspot", "pat-(?:na|eu)1-", ["pat-na1-", "pat-eu1-"], UUID),
  p("huggingface-token", "huggingface", "hf_", ["hf_"], "[A-Za-z0-9]{34}"),
  p("huggingface-org-token", "huggingface", "api_org_", ["api_org_"], "[A-Za-z]{34}"),
  p("infracost-key", "infracost", "ico-", ["ico-"], "[A-Za-z0-9]{32}"),
  // `\b` as the other `sk-` rules start (see `SLOP_SECRET_RULES` in `_scan.ts`)
  p("jina-key", "jina", "jina_", ["jina_"], `${HEX}{32}[A-Za-z0-9_-]{28}`),
  p("langfuse-key", "langfuse", "sk-lf-", ["sk-lf-"], UUID, { before: "\\b" }),
  p(
    "langsmith-key",
    "langsmith",
    "lsv2_(?:pt|sk)_",
    ["lsv2_pt_", "lsv2_sk_"],
    `${HEX}{32}_${HEX}{10}`,
  ),
  p("mailgun-key", "mailgun", "(?:pub)?key-", ["key-", "pubkey-"], "[a-z0-9]{32}", {
    ahead: "[a-z0-9]{32}",
  }),
  p(
    "mailchimp-key",
    "mailchimp",
    "[0-9a-f]{32}-",
    ["0123456789abcdef0123456789abcdef-us"],
    "us[0-9]{1,2}",
    { ahead: "us[0-9]{1,2}" },
  ),
  p(
    "mapbox-token",
    "mapbox",
    "sk\\.",
    ["sk.eyJ"],
    "eyJ[A-Za-z0-9_-]{50,1024}\\.[A-Za-z0-9_-]{20,128}",
    { gate: "J" },
  ),
  p("netlify-token", "netlify", "nfp_", ["nfp_"], "[A-Za-z0-9]{36}"),
  p("nightfall-key", "nightfall", "NF-", ["NF-"], "[A-Za-z0-9]{32}", {
    ahead: "[A-Za-z0-9]{32}",
  }),
  p("notion-token", "notion", "secret_", ["secret_"], "[A-Za-z0-9]{43}", {
    ahead: "[A-Za-z0-9]{43}",
  }),
  p(
    "newrelic-key",
    "newrelic",
    "NR(?:AK|II|JS|RA|AA|BR)-",
    ["NRAK-", "NRII-", "NRJS-"],
    "[A-Za-z0-9_-]{19,40}",
  ),
  p("neon-key", "neon", "napi_", ["napi_"], "[a-z0-9]{64}"),
  p("nvidia-key", "nvidia", "nvapi-", ["nvapi-"], "[A-Za-z0-9_-]{64}"),
  p("octopus-key", "octopus-deploy", "API-", ["API-"], "[A-Z0-9]{26,32}", {
    ahead: "[A-Z0-9]{26}",
  }),
  p("pagarme-key", "pagarme", "ak_", ["ak_live_"], "live_[A-Za-z0-9]{30}", { ahead: "live_" }),
  p("perplexity-key", "perplexity", "pplx-", ["pplx-"], "[A-Za-z0-9]{48}"),
  p("pinecone-key", "pinecone", "pcsk_", ["pcsk_"], "[A-Za-z0-9_]{60,100}"),
  p("pganalyze-key", "pganalyze", "pgar_", ["pgar_"], "[A-Za-z0-9]{27,40}"),
  p("photoroom-key", "photoroom", "sk_pr_", ["sk_pr_"], "[A-Za-z0-9_]{20,80}"),
  p(
    "plaid-token",
    "plaid",
    "access-(?:sandbox|development|production)-",
    ["access-sandbox-", "access-production-"],
    UUID,
  ),
  p(
    "planetscale-token",
    "planetscale",
    "pscale_(?:tkn|pw|oauth)_",
    ["pscale_tkn_", "pscale_pw_", "pscale_oauth_"],
    "[A-Za-z0-9=._-]{32,64}",
    { run: DOTTED_RUN },
  ),
  p("postman-key", "postman", "PMAK-", ["PMAK-"], "[A-Za-z0-9-]{59,60}"),
  p("posthog-key", "posthog", "phx_", ["phx_"], "[A-Za-z0-9_]{43,64}"),
  p("prefect-key", "prefect", "pnu_", ["pnu_"], "[A-Za-z0-9]{36}"),
  p("pulumi-token", "pulumi", "pul-", ["pul-"], "[a-z0-9]{40}"),
  p("readme-key", "readme", "rdme_", ["rdme_"], "[a-z0-9]{70}"),
  p("replicate-token", "replicate", "r8_", ["r8_"], "[A-Za-z0-9]{37}"),
  // (`re_` starts words of code: the token's shape is checked after it)
  p("resend-key", "resend", "re_", ["re_"], "[A-Za-z0-9]{8}_[A-Za-z0-9]{24}", {
    ahead: "[A-Za-z0-9]{8}_[A-Za-z0-9]{24}",
  }),
  p("riot-key", "riot", "RGAPI-", ["RGAPI-"], UUID),
  p("rootly-key", "rootly", "rootly_", ["rootly_"], `${HEX}{64}`),
  p("rubygems-key", "rubygems", "rubygems_", ["rubygems_"], "[a-z0-9]{48}"),
  p("salad-key", "salad", "salad_cloud_", ["salad_cloud_"], "[A-Za-z0-9_]{20,128}"),
  p("scalingo-token", "scalingo", "tk-us-", ["tk-us-"], "[A-Za-z0-9_-]{48}"),
  p(
    "sendinblue-key",
    "sendinblue",
    "x(?:keysib|smtpsib)-",
    ["xkeysib-", "xsmtpsib-"],
    "[A-Za-z0-9_-]{64,96}",
  ),
  p("sentry-org-token", "sentry", "sntrys_", ["sntrys_eyJ"], "eyJ[A-Za-z0-9_=+/]{40,1024}", {
    run: BASE64_RUN,
  }),
  p("sentry-user-token", "sentry", "sntryu_", ["sntryu_"], `${HEX}{64}`),
  p(
    "settlemint-token",
    "settlemint",
    "sm_(?:aat|pat|sat)_",
    ["sm_aat_", "sm_pat_", "sm_sat_"],
    "[A-Za-z0-9]{16}",
  ),
  p(
    "shippo-token",
    "shippo",
    "shippo_",
    ["shippo_live_", "shippo_test_"],
    `(?:live|test)_${HEX}{40}`,
    { ahead: "(?:live|test)_" },
  ),
  p(
    "sonar-token",
    "sonar",
    "sq(?:co|[pau])_",
    ["sqp_", "sqa_", "squ_", "sqco_"],
    "[A-Za-z0-9]{40,64}",
  ),
  p(
    "sourcegraph-token",
    "sourcegraph",
    "sgp_",
    ["sgp_"],
    "(?:local_|[A-Fa-f0-9]{16}_)?[A-Fa-f0-9]{40}",
    { ahead: "(?:local_|[A-Fa-f0-9]{16})" },
  ),
  p("sourcegraph-cody-token", "sourcegraph", "slk_", ["slk_"], `${HEX}{64}`),
  p("spectralops-token", "spectralops", "spu-", ["spu-"], `${HEX}{32}`),
  p(
    "square-token",
    "square",
    "sq0(?:csp|atp|ige|idb|idp)-",
    ["sq0csp-", "sq0atp-"],
    "[A-Za-z0-9_-]{22,43}",
  ),
  p("supabase-secret-key", "supabase", "sb_secret_", ["sb_secret_"], "[A-Za-z0-9_-]{24,64}"),
  p("supabase-token", "supabase", "sbp_", ["sbp_"], "[a-z0-9]{40}"),
  p("tailscale-key", "tailscale", "tskey-", ["tskey-"], "[A-Za-z0-9_-]{30,160}"),
  // a LaunchDarkly server-side SDK key: `sdk-` and a UUID (`sdk-` is a word: the UUID first)
  p("launchdarkly-sdk-key", "launchdarkly", "sdk-", ["sdk-"], UUID, {
    ahead: `${HEX}{8}-${HEX}{4}-`,
  }),
  p(
    "telegram-bot-token",
    "telegram",
    "[0-9]{5,16}:",
    ["123456789:A"],
    "A[A-Za-z0-9_-]{34}",
    {
      ahead: "A[A-Za-z0-9_-]{34}",
      // (also in the Bot API's URL: `https://api.telegram.org/bot123456789:AA…/sendMessage`)
      behind: "(?:\\/bot|(?<![A-Za-z0-9_./-]))",
    },
  ),
  p("tavily-key", "tavily", "tvly-", ["tvly-"], "(?:dev-)?[A-Za-z0-9]{32}"),
  // Telnyx's `KEY`, 32 hex digits and `_` (the head), then 22 letters and digits
  p("telnyx-key", "telnyx", "KEY[0-9A-F]{32}_", ["KEY0"], "[A-Za-z0-9]{22}"),
  // a stream key: `live_`, the channel's number, the key (`live_` is a word: the number first)
  p("twitch-stream-key", "twitch", "live_", ["live_"], "[0-9]{6,12}_[A-Za-z0-9]{30}", {
    ahead: "[0-9]{6}",
  }),
  p("typeform-token", "typeform", "tfp_", ["tfp_"], "[A-Za-z0-9_.=-]{40,64}", {
    run: DOTTED_RUN,
  }),
  p("teamwork-token", "teamwork", "tkn\\.v1_", ["tkn.v1_"], "[A-Za-z0-9+/=_-]{40,128}", {
    run: BASE64_RUN,
  }),
  p("trufflehog-enterprise-key", "trufflehog", "thog-key-", ["thog-key-"], `${HEX}{16}`),
  p("ubidots-token", "ubidots", "BBFF-", ["BBFF-"], "[A-Za-z0-9]{30}"),
  p("xai-key", "xai", "xai-", ["xai-"], "[A-Za-z0-9]{80}"),
  p("yandex-oauth-token", "yandex", "y0_", ["y0_"], "[A-Za-z0-9_-]{55}"),
  // (these three, whose heads end in `.`, are gated by the main hint search's `.` branch, `.` family:
  // a `.` branch of the prefix search stopped at every `.` of code, about 4% of the scan)
  p("airtable-token", "airtable", "pat[A-Za-z0-9]{14}\\.", ["pat"], `${HEX}{64}`, { gate: "." }),
  p(
    "terraform-cloud-token",
    "hashicorp",
    "[A-Za-z0-9]{14}\\.atlasv1\\.",
    ["atlasv1."],
    "[A-Za-z0-9_=-]{60,70}",
    { gate: "." },
  ),
  // Google's OAuth access tokens, wherever they sit: gcloud's token caches (`account|ya29.…|…`),
  // their SQL dumps, a log of `gcloud auth print-access-token`
  p("google-oauth-token", "google-oauth", "ya29\\.", ["ya29."], "[A-Za-z0-9_-]{30,2048}", {
    gate: ".",
  }),
];

function p(
  id: string,
  label: string,
  head: string,
  hints: string[],
  rest: string,
  more: { run?: RegExp; ahead?: string; before?: string; behind?: string; gate?: string } = {},
): Prefixed {
  return { id, label, kind: `${label} token (\`${hints[0]}…\`)`, head, hints, rest, ...more };
}

/** The separator that ends an entry's head: `_`, `-` or `.`, its hint family. */
function separatorOf(t: Prefixed): string {
  return t.head.endsWith("\\.") ? "." : t.head[t.head.length - 1];
}

/**
 * What the hint search looks for after a separator, for every entry that ends its head with
 * it: the heads of the entries without an `ahead` in one lookbehind, then 8 characters
 * of a token; each entry with an `ahead` (a head that is a common word: `sk_`, `key-`, `secret_`)
 * on its own. A lookbehind first fails at once on most separators of code (`self._name`, `a-b`,
 * `x.y`), where a lookahead first reads on, and a lookbehind per kind of rest is tried once per
 * kind.
 */
function separatorHints(): Record<string, string> {
  const groups = new Map<string, { heads: string[]; own: string[] }>();
  for (const t of PREFIXED) {
    if (t.gate) continue;
    const sep = separatorOf(t);
    const group = groups.get(sep) ?? { heads: [], own: [] };
    groups.set(sep, group);
    // The ahead first where it starts with a character of its own (`A`, a digit): most `:` and
    // `/` of code fail there at once.
    if (t.ahead) {
      // (a wrap read only after a head found behind: ahead of every `:` and `/`, its
      // alternative cost the search 2 ms of the stdlib's)
      group.own.push(
        /^[:/]$/.test(sep)
          ? `(?=${t.ahead})(?<=${t.head})`
          : `(?<=${t.head})(?=${wrappedAhead(t.ahead)})`,
      );
    } else group.heads.push(t.head);
  }
  return Object.fromEntries([...groups].map(([sep, { heads, own }]) => {
    const shared = heads.length ? [`(?<=${byLastCharacter(heads, sep)})(?=${GATE_AHEAD})`] : [];
    return [sep, [...shared, ...own].join("|")];
  }));
}

/**
 * An `ahead` that is a run of one class (`[a-f0-9]{32}`), or that run cut by a line end or by a
 * literal's end joined to the next ({@linkcode JOINT}) and one more after it (a token wrapped or
 * split there: the wraps' and the literals' searches read a text whose gate opened); another
 * `ahead` as it is.
 */
function wrappedAhead(ahead: string): string {
  const run = /^(\[[^\]]{1,64}\])\{([0-9]{1,4})\}$/.exec(ahead);
  if (!run) return ahead;
  const [, c, n] = run;
  return String.raw`${ahead}|${c}{0,${Number(n) - 1}}${JOINT}${c}`;
}

/**
 * `heads` (each ending in `sep`) as one pattern grouped by the character before the separator
 * (`(?:(?:op|rubygem)s|(?:ai)o|…)_`): read backwards in a lookbehind, each group is tried on one
 * character, not each head on its own.
 */
function byLastCharacter(heads: string[], sep: string): string {
  const groups = new Map<string, string[]>();
  const tail = sep === "." ? 2 : 1; // `\.`
  for (const head of heads) {
    const body = head.slice(0, -tail);
    const last = /[A-Za-z0-9]$/.test(body) && !/\\.$/.test(body) ? body[body.length - 1] : "";
    groups.set(last, [...groups.get(last) ?? [], last ? body.slice(0, -1) : body]);
  }
  const alternatives = [...groups].map(([last, bodies]) => `(?:${bodies.join("|")})${last}`);
  return `(?:${alternatives.join("|")})${sep === "." ? "\\." : sep}`;
}

/**
 * Where a token may be cut in two: a line end (and the next line's indent), or a literal's end
 * joined to the next one's start (`"dop_v1_ab" + "cd…"`, `'…' . '…'`, Python's literals side by
 * side).
 */
const JOINT = String
  .raw`(?:\r?\n[ \t]{0,64}|["'][ \t]{0,16}(?:[+.&][ \t]{0,16})?(?:\r?\n[ \t]{0,64})?(?:[+.&][ \t]{0,16})?["'])`;

/**
 * What follows every separator of a token the gate looks behind for: 8 of a token's characters,
 * or fewer up to a {@linkcode JOINT} and one more after it (a token wrapped or split there: the
 * wraps' and the literals' searches read a text whose gate opened).
 */
const GATE_AHEAD = String.raw`[A-Za-z0-9+/=_.-]{8}|[A-Za-z0-9+/=_.-]{0,7}${JOINT}[A-Za-z0-9+/=_.-]`;

/**
 * The hint of these tokens (family `P`): a separator (`_`, `-`, `.`, `:`, `/`) that ends one of
 * their prefixes, the prefix checked behind it (see `separatorHints`), in a search of its own
 * (see `textHints`).
 *
 * @example
 * ```ts
 * import { PREFIX_GATE } from "./_secret_rules_prefixed.ts";
 * PREFIX_GATE.test("dop_v1_" + "ab12".repeat(16)); // true
 * ```
 */
export const PREFIX_GATE: RegExp = new RegExp(
  Object.entries(separatorHints()).map(([sep, alternatives]) =>
    `${sep === "." ? "\\." : sep === "/" ? "\\/" : sep}(?:${alternatives})`
  ).join("|"),
  "g",
);

/**
 * Whether a match of an entry whose head is a common word (it has an `ahead`) is still a token
 * when its run goes on past it: its pieces of letters and digits after the head, those of digits
 * alone left out, read as one as random (see `randomPiece`; an Asana token's and a Discord
 * webhook's ids are digits, the secret the pieces after them), not
 * as a name of code that starts with the head (`re_validate_emailAddressConfirmation…`).
 */
function longerOf(t: Prefixed): ((value: string) => boolean) | undefined {
  if (!t.ahead) return undefined;
  const head = new RegExp(`^${t.head}`);
  return (value) => {
    const pieces = value.replace(head, "").split(/[^A-Za-z0-9]+/);
    // The pieces with a letter, read as one: digits alone are an id (a Discord webhook's 17 to
    // 20, read as the longest piece and no random one, dropped the webhook whole), and one piece
    // of a key's several may read as ordered (a LaunchDarkly key's UUID's `0203704555f4`).
    const lettered = pieces.filter((piece) => /[A-Za-z]/.test(piece));
    return randomPiece((lettered.length ? lettered : pieces).join(""));
  };
}

/**
 * Whether letters and digits read as random: with a digit, a change of kind (upper case, lower
 * case, digit) at one in five characters or more (random base62 changes at about three in five,
 * hex at one in two; a name of code at its words' starts, `emailAddressConfirmation` one in six);
 * letters alone, as {@linkcode randomLetters} reads them.
 */
function randomPiece(chars: string): boolean {
  if (!/[0-9]/.test(chars)) return randomLetters(chars);
  const kind = (c: string) => (c < "A" ? 0 : c < "a" ? 1 : 2);
  let changes = 0;
  for (let i = 1; i < chars.length; i++) if (kind(chars[i]) !== kind(chars[i - 1])) changes++;
  return changes * 5 >= chars.length - 1;
}

/** The shapes of these tokens, gated by `P` ({@linkcode PREFIX_GATE}). */
export const PREFIXED_TOKENS: SecretShape[] = PREFIXED.map((t) => ({
  id: t.id,
  gate: t.gate ?? "P",
  label: t.label,
  kind: t.kind,
  hints: t.hints,
  pattern: new RegExp(
    // The head first and what may not come before it checked behind it: a pattern that starts
    // with a lookbehind is tried at every character, one that starts with letters is looked for.
    t.before
      ? `${t.before}${t.head}${t.rest}`
      : `${t.head}(?<=${t.behind ?? "(?<![A-Za-z0-9_./-])"}${t.head})${t.rest}`,
    "g",
  ),
  accept: (value: string) => !fewCharacters(value),
  run: t.run ?? TOKEN_RUN,
  longer: longerOf(t),
}));
