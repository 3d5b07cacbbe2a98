// Rules version 40: API keys given by position to known providers' clients (Cohere, Ably,
// Segment, Dropbox), Honeycomb's `x-honeycomb-team` header; and the look-alikes that stay.
import assert from "node:assert/strict";
import { redactText } from "../../pipeline/_scan.ts";
import { kept, redactsValue } from "./_redacts.ts";

const COHERE = "OnxGDkLoAEtS83B8dMTUqtueCXAQlGqhBXtpEMR2";
const ABLY = "oSVYnN.JltnsD:luWo1BZxdRDDqYD768CM3HwgpABPZNtMt1tomXg9Usx";
const SEGMENT = "kDGywY8MelXTxperZOYNymhkv1pYDTGe";
const DROPBOX = "sl.rDt5MJdcZSa9ycJ3lZbI1rRPclcys7c9yKfAj0N6Vlu4gWir-jxjodPQtA2YM_DJmehmjk52tAfD" +
  "50fWTFcp44sPEksCKmAM-5gnoGA2T2ufSOCIdSD1EILvtj3l2YatzKwxcR4yGCrD";
const HONEYCOMB = "Bno0y8bjdPQbYbREhBeaV5";

Deno.test("a provider client's key by position", async () => {
  await redactsValue(`co = cohere.Client("${COHERE}")\n`, COHERE, "rag.py");
  await redactsValue(`co = cohere.ClientV2('${COHERE}')\n`, COHERE, "rag.py");
  await redactsValue(`const ably = new Ably.Realtime("${ABLY}");\n`, ABLY, "a.js");
  await redactsValue(`const rest = new Ably.Rest('${ABLY}');\n`, ABLY, "a.ts");
  await redactsValue(`analytics.load("${SEGMENT}");\n`, SEGMENT, "index.html");
  await redactsValue(`dbx = dropbox.Dropbox("${DROPBOX}")\n`, DROPBOX, "sync.py");
});

Deno.test("a provider client given a name, an option or a stand-in stays", async () => {
  await kept(`co = cohere.Client(api_key)\n`, "rag.py");
  await kept(`co = cohere.Client(os.environ["CO_API_KEY"])\n`, "rag.py");
  await kept(`co = cohere.Client("YOUR_API_KEY")\n`, "rag.py");
  await kept(`analytics.load(writeKey);\n`, "a.js");
  await kept(`analytics.load("YOUR_WRITE_KEY");\n`, "a.js");
  await kept(`const ably = new Ably.Realtime({ authUrl: "/auth" });\n`, "a.js");
  await kept(`const ably = new Ably.Realtime(process.env.ABLY_KEY);\n`, "a.js");
  await kept("const ably = new Ably.Rest(`${key}`);\n", "a.js");
  await kept(`dbx = dropbox.Dropbox(token)\n`, "sync.py");
});

Deno.test("Honeycomb's team header", async () => {
  await redactsValue(
    `OTEL_EXPORTER_OTLP_HEADERS="x-honeycomb-team=${HONEYCOMB}"\n`,
    HONEYCOMB,
    ".env",
  );
  await redactsValue(
    `curl -H "X-Honeycomb-Team: ${HONEYCOMB}" https://api.honeycomb.io\n`,
    HONEYCOMB,
  );
  await kept(`OTEL_EXPORTER_OTLP_HEADERS="x-honeycomb-team=YOUR_API_KEY"\n`, ".env");
  await kept(`headers: { "x-honeycomb-team": process.env.HONEYCOMB_API_KEY }\n`, "a.js");
});

Deno.test("a key split over an array's literals joined with nothing between", async () => {
  const slack = "xoxb-802103739340-7714662936057-dyjl5nj3wmFN9zAq2NDOlw4i";
  const text = `const t = ["${slack.slice(0, 12)}", "${slack.slice(12, 30)}", "${
    slack.slice(30)
  }"].join("");\n`;
  const out = (await redactText(text, "a.js")).text;
  assert.ok(!out.includes(slack.slice(30)) && !out.includes(slack.slice(0, 12)), out);
  assert.ok(out.startsWith('const t = ["[REDACTED:') && out.endsWith(`"].join("");\n`), out);
  await kept(`const t = ["xoxb-", "802103739340"].join("-");\n`, "a.js");
  await kept(`const path = ["src", "lib", "index.ts"].join("");\n`, "a.js");
  await kept(`const classes = ["btn", " btn-primary"].join('');\n`, "a.js");
});
