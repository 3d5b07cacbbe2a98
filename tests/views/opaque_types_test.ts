import assert from "node:assert/strict";
import { LANGUAGES } from "../../grammars/languages.ts";
import { renderCode, type RenderCodeOptions } from "../../plugins/view_modes/_code.ts";

const FIXTURES = new URL("../fixtures/views/", import.meta.url);

/**
 * TypeScript where types sit everywhere the walk goes (annotations, aliases, clauses, values),
 * with imports of every form and string literals, which the walk skips too.
 */
const TYPES = `import type { A } from "./a";
import * as ns from "ns";
import def, { a as b, c } from 'm\\'s';
import "side-effect";
export { b as default2 } from "./re";
const label = "tab\\t" + 'quote\\'' + \`tpl \${(() => { return 1; })()}\`;

export type Shape<T extends object = {}> =
  | { kind: "a"; run(x: number): Promise<T>; nested: { deep: Array<[string, () => void]> } }
  | (T extends infer U ? readonly U[] : never)
  | \`prefix-\${string}\`;

export interface Store<K, V> extends Map<K, V>, Iterable<[K, V]> {
  get(key: K): V | undefined;
  readonly size: number;
  on<E extends keyof Events>(event: E, handler: (payload: Events[E]) => void): () => void;
}

export class Impl<T> extends Base<T> implements Store<string, T>, Other {
  private cache: Map<string, { value: T; at: number }> = new Map();
  constructor(private readonly inner: typeof import("./inner"), opts?: Partial<Options>) {
    super();
  }
  get(key: string): T | undefined {
    return this.cache.get(key)?.value;
  }
  static of<U>(items: readonly U[]): Impl<U> {
    const out = new Impl<U>(null as never);
    return out;
  }
}

export const handlers: Record<string, (req: Request) => Promise<Response>> = {
  a: async (req: Request): Promise<Response> => {
    return new Response(await req.text());
  },
  b: (req) => fetch(req),
};

export function check(x: unknown): asserts x is string {
  if (typeof x !== "string") throw new Error("no");
}

export const broken: { run: () => { return 1 } } = make();
let partial: Array<{ a: number, b: () => { const c = 1; return c } }>;
export default function <T,>(value: T): [T, T] {
  return [value, value];
}
`;

/** Render with the TypeScript and TSX specs as they are, then with their walk entering types. */
async function both(path: string, text: string, options: RenderCodeOptions) {
  const specs = LANGUAGES.filter((l) => l.opaque);
  const fast = await renderCode(path, text, options);
  const saved = specs.map((s) => s.opaque);
  try {
    for (const spec of specs) spec.opaque = undefined;
    return { fast, slow: await renderCode(path, text, options) };
  } finally {
    specs.forEach((spec, i) => (spec.opaque = saved[i]));
  }
}

Deno.test("the walk skips TypeScript types, strings and imports and renders byte-identical to walking into them", async () => {
  const cases = [
    { path: "types.ts", text: TYPES },
    { path: "types.tsx", text: TYPES },
    ...["sample.ts", "sample.tsx", "sample.js"].map((name) => ({
      path: name,
      text: Deno.readTextFileSync(new URL(name, FIXTURES)),
    })),
  ];
  const options: RenderCodeOptions[] = [
    {},
    { maxValueLines: 2 },
    { rest: "hide", mask: { "Impl.get": "sig", "handlers": "def", "Store": "sig" } },
  ];
  for (const c of cases) {
    for (const o of options) {
      const { fast, slow } = await both(c.path, c.text, o);
      assert.ok(fast && slow, c.path);
      assert.deepEqual(fast, slow, `${c.path} ${JSON.stringify(o)}`);
    }
  }
  // The cases exercise the skip: a kept signature with its types, and a type with parse errors.
  const view = (await renderCode("types.ts", TYPES))!;
  assert.ok(
    view.text.includes(
      "on<E extends keyof Events>(event: E, handler: (payload: Events[E]) => void): () => void;",
    ),
  );
  assert.ok(view.hasErrors, "the broken annotations parse with errors");
});
