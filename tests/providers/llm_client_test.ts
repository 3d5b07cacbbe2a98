import assert from "node:assert/strict";
import { join } from "node:path";
import {
  anthropicProvider,
  buildContext,
  deepseekProvider,
  geminiProvider,
  openaiProvider,
  type ProviderContext,
  type ProviderPlugin,
  type ViewModePlugin,
} from "../../mod.ts";
import { makeProject } from "../_helpers.ts";
import { LLM_TEST_KEY, LLM_TEST_KEY_ENV, type LlmServer, startLlmServer } from "../_llm_server.ts";

const env = (name: string) => (name === LLM_TEST_KEY_ENV ? LLM_TEST_KEY : undefined);

function ctxFor(server: LlmServer, name: "anthropic" | "openai" | "deepseek" | "gemini") {
  return { provider: { ...server.provider(name), model: "test-model" }, env } as ProviderContext;
}

async function withServer(fn: (server: LlmServer) => Promise<void>) {
  const server = startLlmServer();
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

function complete(plugin: ProviderPlugin, ctx: ProviderContext, prompt = "Summarize: x") {
  return plugin.complete!({ system: "Be brief", prompt, maxTokens: 64 }, ctx);
}

Deno.test("anthropicProvider() sends a Messages API body with the key and version headers", async () => {
  await withServer(async (server) => {
    server.enqueue({ text: "a short summary" });
    const text = await complete(anthropicProvider(), ctxFor(server, "anthropic"));
    assert.equal(text, "a short summary");
    const [req] = server.requests;
    assert.equal(req.api, "anthropic");
    assert.equal(req.path, "/v1/messages");
    assert.equal(req.headers["x-api-key"], LLM_TEST_KEY);
    assert.equal(req.headers["anthropic-version"], "2023-06-01");
    assert.equal(req.headers["content-type"], "application/json");
    assert.equal(req.headers["authorization"], undefined);
    assert.deepEqual(req.body, {
      model: "test-model",
      max_tokens: 64,
      system: "Be brief",
      messages: [{ role: "user", content: "Summarize: x" }],
    });
  });
});

Deno.test("openaiProvider() sends a chat completions body with a bearer key to a compatible server", async () => {
  await withServer(async (server) => {
    const text = await complete(openaiProvider(), ctxFor(server, "openai"), "hello");
    assert.equal(text, "Echo: hello");
    const [req] = server.requests;
    assert.equal(req.path, "/v1/chat/completions");
    assert.equal(req.headers["authorization"], `Bearer ${LLM_TEST_KEY}`);
    assert.deepEqual(req.body, {
      model: "test-model",
      messages: [{ role: "system", content: "Be brief" }, { role: "user", content: "hello" }],
      max_tokens: 64,
    });
  });
});

Deno.test("openaiProvider() runs without a key against a local server (Ollama, llama.cpp)", async () => {
  await withServer(async (server) => {
    const ctx = {
      provider: { baseUrl: server.openaiUrl, model: "qwen3:8b" },
      env: () => undefined,
    };
    const text = await openaiProvider({ maxTokensField: "max_completion_tokens" }).complete!(
      { prompt: "hi" },
      ctx,
    );
    assert.equal(text, "Echo: hi");
    const [req] = server.requests;
    assert.equal(req.headers["authorization"], undefined);
    assert.deepEqual(req.body, {
      model: "qwen3:8b",
      messages: [{ role: "user", content: "hi" }],
      max_completion_tokens: 1024,
    });
  });
});

Deno.test("deepseekProvider() speaks the OpenAI shape", async () => {
  await withServer(async (server) => {
    const ctx = { provider: { ...server.provider("deepseek") }, env };
    const text = await deepseekProvider().complete!({ prompt: "p" }, ctx);
    assert.equal(text, "Echo: p");
    const [req] = server.requests;
    assert.equal(req.api, "openai");
    assert.deepEqual(req.body, {
      model: "deepseek-chat",
      messages: [{ role: "user", content: "p" }],
      max_tokens: 1024,
    });
  });
});

Deno.test("geminiProvider() posts generateContent with the key in a header, never the URL", async () => {
  await withServer(async (server) => {
    const text = await complete(geminiProvider(), ctxFor(server, "gemini"), "q");
    assert.equal(text, "Echo: q");
    const [req] = server.requests;
    assert.equal(req.path, "/v1beta/models/test-model:generateContent");
    assert.equal(req.headers["x-goog-api-key"], LLM_TEST_KEY);
    assert.doesNotMatch(req.path, /SECRET/);
    assert.deepEqual(req.body, {
      systemInstruction: { parts: [{ text: "Be brief" }] },
      contents: [{ role: "user", parts: [{ text: "q" }] }],
      generationConfig: { maxOutputTokens: 64 },
    });
  });
});

Deno.test("the client retries a 429 after the server's retry-after", async () => {
  await withServer(async (server) => {
    server.enqueue({ status: 429, headers: { "retry-after": "1" } }, { text: "done" });
    const provider = anthropicProvider({ backoffMs: 1 });
    assert.equal(await complete(provider, ctxFor(server, "anthropic")), "done");
    assert.equal(server.requests.length, 2);
    const waited = server.requests[1].at - server.requests[0].at;
    assert.ok(waited >= 950, `waited ${waited} ms, retry-after asked for 1000`);
    assert.deepEqual(server.requests[1].body, server.requests[0].body);
  });
});

Deno.test("the client honours retry-after-ms and retries 5xx with backoff", async () => {
  await withServer(async (server) => {
    server.enqueue(
      { status: 503, headers: { "retry-after-ms": "200" } },
      { status: 500 },
      { text: "third time" },
    );
    const provider = openaiProvider({ backoffMs: 1 });
    assert.equal(await complete(provider, ctxFor(server, "openai")), "third time");
    assert.equal(server.requests.length, 3);
    assert.ok(server.requests[1].at - server.requests[0].at >= 190);
  });
});

Deno.test("a failing server gives a clear error naming the plugin after the last retry", async () => {
  await withServer(async (server) => {
    server.enqueue(
      { status: 500 },
      { status: 502 },
      { status: 503, body: { error: { message: "overloaded" } } },
    );
    const error = await failure(
      complete(openaiProvider({ retries: 2, backoffMs: 1 }), ctxFor(server, "openai")),
    );
    assert.equal(
      error.message,
      `[plugin slop:openai] Request to "${server.openaiUrl}/chat/completions" failed after 3 attempts: HTTP 503: {"error":{"message":"overloaded"}}`,
    );
    assert.equal(server.requests.length, 3);
  });
});

Deno.test("a 400 is not retried and its message is shown", async () => {
  await withServer(async (server) => {
    server.enqueue({ status: 400, body: { error: { message: "max_tokens: too large" } } });
    const error = await failure(complete(anthropicProvider(), ctxFor(server, "anthropic")));
    assert.match(error.message, /^\[plugin slop:anthropic\] Request to ".*\/v1\/messages" failed/);
    assert.match(error.message, /HTTP 400: .*max_tokens: too large/);
    assert.equal(server.requests.length, 1);
  });
});

Deno.test("an attempt that takes longer than timeoutMs times out and is retried", async () => {
  await withServer(async (server) => {
    // The retry is answered at once, but must come within the limit on a loaded machine too.
    server.enqueue({ delayMs: 10_000, text: "too late" }, { text: "in time" });
    const provider = geminiProvider({ timeoutMs: 3000, backoffMs: 1 });
    assert.equal(await complete(provider, ctxFor(server, "gemini")), "in time");
    assert.equal(server.requests.length, 2);

    server.enqueue({ delayMs: 10_000 });
    const error = await failure(
      complete(geminiProvider({ timeoutMs: 100, retries: 0 }), ctxFor(server, "gemini")),
    );
    assert.match(
      error.message,
      /^\[plugin slop:gemini\] .* failed after 1 attempt: no answer within 100 ms$/,
    );
  });
});

Deno.test("an unreachable server gives a network error naming the plugin", async () => {
  const server = startLlmServer();
  const ctx = ctxFor(server, "deepseek");
  await server.close();
  const error = await failure(complete(deepseekProvider({ retries: 1, backoffMs: 1 }), ctx));
  assert.match(
    error.message,
    /^\[plugin slop:deepseek\] Request to "http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions" failed after 2 attempts: network error: /,
  );
});

Deno.test("a body that is not JSON or has no text is a clear error", async () => {
  await withServer(async (server) => {
    server.enqueue({ raw: "<html>gateway</html>" }, { body: { content: [] } });
    const ctx = ctxFor(server, "anthropic");
    const bad = await failure(complete(anthropicProvider(), ctx));
    assert.match(bad.message, /returned a body that is not JSON: <html>gateway<\/html>$/);
    const empty = await failure(complete(anthropicProvider(), ctx));
    assert.equal(
      empty.message,
      `[plugin slop:anthropic] The answer of model "test-model" has no text`,
    );
  });
});

Deno.test("a missing key for the public API names the variable and sends nothing", async () => {
  const error = await failure(
    anthropicProvider().complete!({ prompt: "x" }, { provider: {}, env: () => undefined }),
  );
  assert.equal(
    error.message,
    `[plugin slop:anthropic] Missing API key: set the environment variable "ANTHROPIC_API_KEY" (or "provider.apiKeyEnv")`,
  );
  const custom = await failure(
    openaiProvider().complete!({ prompt: "x" }, {
      provider: { apiKeyEnv: "MY_OPENAI" },
      env: () => undefined,
    }),
  );
  assert.match(custom.message, /"MY_OPENAI"/);
});

Deno.test("the concurrency limit caps requests in flight", async () => {
  await withServer(async (server) => {
    for (let i = 0; i < 6; i++) server.enqueue({ delayMs: 60, text: `r${i}` });
    const provider = openaiProvider({ concurrency: 2 });
    const ctx = ctxFor(server, "openai");
    const answers = await Promise.all([0, 1, 2, 3, 4, 5].map(() => complete(provider, ctx)));
    assert.deepEqual([...answers].sort(), ["r0", "r1", "r2", "r3", "r4", "r5"]);
    assert.equal(server.peakInFlight, 2);
  });
});

Deno.test("a key echoed back by a server never appears in the error", async () => {
  const server = startLlmServer({
    reply: (r) => ({
      status: 401,
      body: {
        error: `invalid key ${
          r.headers["x-api-key"] ?? r.headers["x-goog-api-key"] ?? r.headers["authorization"]
        }`,
      },
    }),
  });
  try {
    const plugins = {
      anthropic: anthropicProvider,
      openai: openaiProvider,
      gemini: geminiProvider,
    };
    for (const name of ["anthropic", "openai", "gemini"] as const) {
      const error = await failure(complete(plugins[name](), ctxFor(server, name)));
      for (const text of [error.message, String(error), error.stack ?? "", JSON.stringify(error)]) {
        assert.ok(!text.includes(LLM_TEST_KEY), `key leaked by ${name}: ${text}`);
      }
      assert.match(error.message, /HTTP 401: \{"error":"invalid key (Bearer )?\*\*\*"\}/);
    }
    assert.equal(server.requests.length, 3);
  } finally {
    await server.close();
  }
});

// The key the next test's build reads from the environment: set once, for the whole process (a
// test may not change the environment while tests run beside it).
const BUILD_KEY = "sk-build-SECRET-9f8e7d6c5b4a";
Deno.env.set("SLOP_TEST_BUILD_KEY", BUILD_KEY);

Deno.test("a build whose view mode asks the model keeps the key out of document, manifest and files", async () => {
  const key = BUILD_KEY;
  const server = startLlmServer({
    reply: (r) =>
      r.prompt.includes("fail")
        ? { status: 401, body: { error: `bad key ${r.headers["x-api-key"]}` } }
        : "ok summary",
  });
  const asking: ViewModePlugin = {
    kind: "view-mode",
    name: "asks",
    version: "1",
    render: async (file, ctx) => await ctx.complete({ prompt: file.text }),
  };
  try {
    const root = await makeProject({ "a.txt": "please summarize", "b.txt": "please fail" });
    const result = await buildContext({
      cwd: root,
      inline: {
        files: [{ path: "*.txt", view: "asks" }],
        plugins: [asking],
        provider: { name: "anthropic", baseUrl: server.url, apiKeyEnv: "SLOP_TEST_BUILD_KEY" },
      },
    }, { write: true });
    assert.equal(server.requests.length, 2);
    assert.equal(server.requests[0].headers["x-api-key"], key);
    assert.match(result.document, /### a\.txt\n\n```txt\nok summary\n```/);
    assert.match(result.document, /\[plugin slop:anthropic\].*HTTP 401/);
    const written = [result.document, JSON.stringify(result.manifest), ...result.warnings];
    for (const entry of Deno.readDirSync(join(root, ".slop", "out"))) {
      written.push(await Deno.readTextFile(join(root, ".slop", "out", entry.name)));
    }
    for (const text of written) assert.ok(!text.includes(key), `key leaked: ${text}`);
  } finally {
    await server.close();
  }
});
