import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";

// The embedded database has one connection per client, and a transaction on it holds every
// statement sent meanwhile (ADR 0047). The turns below keep them apart: one transaction at a
// time, Prisma's or the engine's, and a statement from outside it waits until it has ended, so
// it neither reads what may be rolled back nor is rolled back with it.

/** The connection a client's Prisma adapter opened; one set of turns each. */
export type TurnKey = object;

/** A queue of one: the connection holds a single transaction at a time. */
class Turns {
  #tail: Promise<void> = Promise.resolve();
  #waiting = 0;

  get busy(): boolean {
    return this.#waiting > 0;
  }

  take(): Promise<() => void> {
    this.#waiting += 1;
    let done!: () => void;
    const turn = new Promise<void>((resolve) => {
      done = resolve;
    });
    let given = false;
    const release = () => {
      if (given) return;
      given = true;
      this.#waiting -= 1;
      done();
    };
    const ready = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => turn);
    return ready;
  }
}

const turnsByKey = new WeakMap<TurnKey, Turns>();
function turnsOf(key: TurnKey): Turns {
  let turns = turnsByKey.get(key);
  if (!turns) {
    turns = new Turns();
    turnsByKey.set(key, turns);
  }
  return turns;
}

// Which engine transaction the current async context runs in, while it is open.
type Open = { key: TurnKey; open: boolean };
const current = new AsyncLocalStorage<Open>();

/** True inside the body of an engine transaction on `key` that is still open. */
export function insideTransaction(key: TurnKey): boolean {
  const store = current.getStore();
  return store?.key === key && store.open;
}

/** Waits for the connection's turn; the caller must call what it returns when done. */
export function takeTurn(key: TurnKey): Promise<() => void> {
  return turnsOf(key).take();
}

/** Runs `body` as the open transaction on `key`; it counts as outside once `body` has settled. */
export async function runAsTransaction<T>(key: TurnKey, body: () => Promise<T>): Promise<T> {
  const open: Open = { key, open: true };
  try {
    return await current.run(open, body);
  } finally {
    open.open = false;
  }
}

/**
 * Runs a statement sent outside any transaction (`send`) when no transaction holds the
 * connection: at once when none is open or queued, or from inside the body of the open one;
 * otherwise in a turn of its own, so that no transaction begins between waiting and sending.
 */
export async function outsideTransactions<T>(key: TurnKey, send: () => T | Promise<T>): Promise<T> {
  const turns = turnsByKey.get(key);
  if (!turns?.busy || insideTransaction(key)) return send();
  const release = await turns.take();
  try {
    return await send();
  } finally {
    release();
  }
}
