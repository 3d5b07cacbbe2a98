/**
 * Preloaded into the builds of `slop check --determinism`: directory
 * listings (`Deno.readDir`, `Deno.readDirSync`) and `git ls-files` output
 * come back in a shuffled order, seeded by `SLOP_SHUFFLE_SEED`, so any
 * dependence on listing order shows up as different bytes.
 *
 * @module
 */

let seed = Number(Deno.env.get("SLOP_SHUFFLE_SEED") ?? "1") >>> 0 || 1;

function random(): number {
  // xorshift32: small, seeded, and the same on every machine.
  seed ^= seed << 13;
  seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  seed >>>= 0;
  return seed / 0x100000000;
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

const readDir = Deno.readDir;
const readDirSync = Deno.readDirSync;
const Command = Deno.Command;

async function* shuffledReadDir(path: string | URL): AsyncIterable<Deno.DirEntry> {
  const entries: Deno.DirEntry[] = [];
  for await (const entry of readDir(path)) entries.push(entry);
  yield* shuffle(entries);
}

function shuffledReadDirSync(path: string | URL): IteratorObject<Deno.DirEntry> {
  return shuffle([...readDirSync(path)]).values();
}

class ShuffledCommand extends Command {
  #args: string[];
  constructor(command: string | URL, options?: Deno.CommandOptions) {
    super(command, options);
    this.#args = options?.args ?? [];
  }
  override async output(): Promise<Deno.CommandOutput> {
    const out = await super.output();
    if (!this.#args.includes("ls-files") || !out.success) return out;
    const text = new TextDecoder().decode(out.stdout);
    const sep = this.#args.includes("-z") ? "\0" : "\n";
    const parts = shuffle(text.split(sep).filter(Boolean));
    const stdout = new TextEncoder().encode(parts.map((p) => p + sep).join(""));
    return {
      success: out.success,
      code: out.code,
      signal: out.signal,
      stdout,
      stderr: out.stderr,
    } as Deno.CommandOutput;
  }
}

for (
  const [name, value] of [
    ["readDir", shuffledReadDir],
    ["readDirSync", shuffledReadDirSync],
    ["Command", ShuffledCommand],
  ] as const
) {
  Object.defineProperty(Deno, name, { value, configurable: true, writable: true });
}
