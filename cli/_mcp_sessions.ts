/**
 * The sessions of `slop mcp --http`: each client's transport by session id,
 * with when it was last used. A session idle for longer than the idle
 * timeout is closed, and when a new session would pass the limit the least
 * recently used one is closed first, so a server left running for days holds
 * a bounded number of sessions. A client whose session was closed gets 404
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
  /** Add a session (closing the least recently used one when the table is full). */
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
  const open = new Map<string, { transport: T; used: number }>();
  const close = async (id: string) => {
    const entry = open.get(id);
    open.delete(id);
    await entry?.transport.close().catch(() => {});
  };
  const expired = () =>
    idleMs > 0 ? [...open].filter(([, e]) => now() - e.used > idleMs).map(([id]) => id) : [];
  return {
    get(id) {
      const entry = open.get(id);
      if (!entry) return undefined;
      if (idleMs > 0 && now() - entry.used > idleMs) {
        void close(id);
        return undefined;
      }
      open.delete(id);
      open.set(id, { transport: entry.transport, used: now() });
      return entry.transport;
    },
    add(id, transport) {
      while (open.size >= max) void close(open.keys().next().value!);
      open.set(id, { transport, used: now() });
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
