/**
 * The sessions of `slop mcp --http`: each client's transport by session id,
 * with when it was last used. A session idle for longer than the idle
 * timeout is closed, and when a new session would pass the limit the least
 * recently used one is closed first, so a server left running for days holds
 * a bounded number of sessions. A session is not idle while a request of it is
 * being answered (a long build's call, with `--reply-within 0`, stays open for
 * minutes): closing it would cancel that call. A client whose session was closed gets 404
 * for it and, as the MCP specification asks, starts a new one.
 *
 * @module
 */

/** What the table needs of a transport: closing it. */
export interface Closable {
  close(): Promise<void>;
}

/** Options of {@linkcode sessionTable}. */
export interface SessionTableOptions {
  /** Close a session unused for this long, in milliseconds; 0 never does. @default {3_600_000} */
  idleMs?: number;
  /** The most sessions open at once. @default {64} */
  max?: number;
  /** The clock, in milliseconds (tests pass their own). @default {Date.now} */
  now?: () => number;
}

/** The open sessions, by id. */
export interface SessionTable<T extends Closable> {
  /** The session with this id, marked as used now; `undefined` when there is none (or it expired). */
  get(id: string): T | undefined;
  /**
   * Keep a session from expiring while one of its requests is answered: the function returned
   * ends that (once), and counts as a use.
   */
  hold(id: string): () => void;
  /**
   * Add a session (closing the least recently used one when the table is full, one that answers
   * no request if there is one).
   */
  add(id: string, transport: T): void;
  /** Forget a session (it was closed). */
  delete(id: string): void;
  /** Close the sessions idle for longer than the timeout; gives how many were closed. */
  sweep(): Promise<number>;
  /** Close every session. */
  closeAll(): Promise<void>;
  /** How many sessions are open. */
  readonly size: number;
}

/**
 * A table of MCP sessions with an idle timeout and a size limit.
 *
 * @example
 * ```ts
 * import { sessionTable } from "./_mcp_sessions.ts";
 * let time = 0;
 * const table = sessionTable({ idleMs: 1000, now: () => time });
 * table.add("a", { close: async () => {} });
 * time = 2000;
 * await table.sweep(); // 1: "a" was idle for 2 s
 * ```
 */
export function sessionTable<T extends Closable>(
  options: SessionTableOptions = {},
): SessionTable<T> {
  const idleMs = options.idleMs ?? 3_600_000;
  const max = Math.max(1, options.max ?? 64);
  const now = options.now ?? Date.now;
  // Insertion order is use order: a used session is moved to the end.
  const open = new Map<string, { transport: T; used: number; held: number }>();
  const close = async (id: string) => {
    const entry = open.get(id);
    open.delete(id);
    await entry?.transport.close().catch(() => {});
  };
  const idle = (entry: { used: number; held: number }) =>
    idleMs > 0 && entry.held === 0 && now() - entry.used > idleMs;
  const expired = () => [...open].filter(([, entry]) => idle(entry)).map(([id]) => id);
  return {
    get(id) {
      const entry = open.get(id);
      if (!entry) return undefined;
      if (idle(entry)) {
        void close(id);
        return undefined;
      }
      entry.used = now();
      open.delete(id);
      open.set(id, entry);
      return entry.transport;
    },
    hold(id) {
      const entry = open.get(id);
      if (!entry) return () => {};
      entry.held++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        entry.held--;
        entry.used = now();
      };
    },
    add(id, transport) {
      // The least recently used one that answers no request now goes first (closing one that
      // does cancels its call), else the least recently used.
      while (open.size >= max) {
        const free = [...open].find(([, entry]) => entry.held === 0);
        void close(free?.[0] ?? open.keys().next().value!);
      }
      open.set(id, { transport, used: now(), held: 0 });
    },
    delete(id) {
      open.delete(id);
    },
    async sweep() {
      const ids = expired();
      for (const id of ids) await close(id);
      return ids.length;
    },
    async closeAll() {
      for (const id of [...open.keys()]) await close(id);
    },
    get size() {
      return open.size;
    },
  };
}
