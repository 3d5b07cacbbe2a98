/**
 * The shape of a written manifest, checked before `slop stats`, `report`, `explain` and
 * `slop mcp` read one: a manifest edited by hand, cut short by a full disk or written by another
 * version of slop is passed over with the key at fault named, rather than failing deep inside a
 * command with a JavaScript error (`view is not iterable`).
 *
 * @module
 */

/** A value's expected type: a scalar's name, a list of one shape, or an object of shapes. */
type Shape = "string" | "number" | "boolean" | readonly [Shape] | { readonly [key: string]: Shape };

const COUNTS: Shape = { bytes: "number", sha256: "string", tokens: "number" };

/** What slop writes (keys ending in `?` may be absent); other keys are let be. */
const MANIFEST: Shape = {
  output: "string",
  files: [{
    path: "string",
    view: "string",
    status: "string",
    "reason?": "string",
    sha256: "string",
    bytes: "number",
    "cache?": "string",
    "notes?": ["string"],
    "fallback?": "string",
  }],
  blocks: [{
    id: "string",
    section: "string",
    stability: "string",
    offset: "number",
    length: "number",
    sha256: "string",
    tokens: "number",
    "notes?": ["string"],
  }],
  prefix: COUNTS,
  total: COUNTS,
  warnings: ["string"],
  "secrets?": [{ path: "string", line: "number", rule: "string" }],
  "budget?": {
    tokens: "number",
    before: "number",
    after: "number",
    met: "boolean",
    steppedDown: [{ path: "string", from: "string", to: "string" }],
  },
  "breakpoints?": [{ id: "string", end: "number", tokens: "number", ttl: "string" }],
  "task?": {
    sha256: "string",
    tokens: "number",
    "share?": "number",
    files: [{ path: "string", score: "number", where: "string", view: "string" }],
  },
};

/**
 * Why a parsed manifest is not one slop can read (the key path at fault), or undefined.
 *
 * @example
 * ```ts
 * import { manifestProblem } from "./_manifest_shape.ts";
 * manifestProblem({ version: 2 }); // "it was written by another version of slop (version 2)"
 * ```
 */
export function manifestProblem(value: unknown): string | undefined {
  if (!isObject(value)) return "it is not a JSON object";
  if (value.version !== 1) {
    return `it was written by another version of slop (version ${JSON.stringify(value.version)})`;
  }
  if (typeof value.output !== "string") return "it names no output document";
  return shapeProblem(value, MANIFEST, "");
}

function shapeProblem(value: unknown, shape: Shape, at: string): string | undefined {
  if (typeof shape === "string") {
    const fits = shape === "number"
      ? Number.isFinite(value)
      : shape === "string"
      ? typeof value === "string"
      : typeof value === "boolean";
    return fits ? undefined : `"${at}" is not a ${shape}`;
  }
  if (Array.isArray(shape)) {
    if (!Array.isArray(value)) return `"${at}" is not a list`;
    for (let i = 0; i < value.length; i++) {
      const problem = shapeProblem(value[i], shape[0], `${at}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  if (!isObject(value)) return `"${at}" is not an object`;
  for (const [key, inner] of Object.entries(shape)) {
    const name = key.endsWith("?") ? key.slice(0, -1) : key;
    if (key.endsWith("?") && value[name] === undefined) continue;
    const problem = shapeProblem(value[name], inner, at ? `${at}.${name}` : name);
    if (problem) return problem;
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
