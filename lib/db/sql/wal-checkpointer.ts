import "server-only";
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { Database } from "better-sqlite3";

// The embedded database's WAL checkpoints run on a thread of their own (ADR 0046). SQLite
// checkpoints on the committing connection once the log passes 1,000 pages, and a checkpoint
// copies the log into the database file and syncs both: several milliseconds during which
// better-sqlite3, being synchronous, holds the event loop, once every few dozen commits.
// A second connection on a worker thread checkpoints instead, so commits only ever append.

/** How often the worker checkpoints; one that finds nothing new to copy costs no sync. */
export const CHECKPOINT_INTERVAL_MS = 100;
/**
 * The committing connection still checkpoints past this many pages (40 MiB at 4 KiB pages), so
 * the log stays bounded should the worker ever fall behind.
 */
export const BACKSTOP_AUTOCHECKPOINT_PAGES = 10_000;
/** SQLite's own default, restored when no worker checkpoints for a connection. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1_000;

export interface CheckpointReport {
  file: string;
  /** Pages in the log and pages of it copied into the database, as `wal_checkpoint` reports. */
  log: number;
  checkpointed: number;
}

type ToWorker = { type: "watch"; file: string } | { type: "forget"; file: string; ack: number };
type FromWorker =
  | ({ type: "checkpointed" } & CheckpointReport)
  | { type: "forgotten"; ack: number }
  | { type: "refused"; file: string; reason: string };

// Plain CommonJS, run with `eval` so that no bundler has to find or rewrite a worker file. One
// connection per file, however many clients of this process use it.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const watched = new Map();
function refuse(file, error) {
  const entry = watched.get(file);
  watched.delete(file);
  try { entry && entry.connection.close(); } catch {}
  parentPort.postMessage({ type: "refused", file, reason: String(error && error.message) });
}
parentPort.on("message", (message) => {
  const entry = watched.get(message.file);
  if (message.type === "watch") {
    if (entry) { entry.refs += 1; return; }
    try {
      const connection = new Database(message.file, { fileMustExist: true });
      connection.pragma("synchronous = NORMAL");
      watched.set(message.file, { connection, refs: 1, last: "" });
    } catch (error) { refuse(message.file, error); }
    return;
  }
  try {
    if (entry && --entry.refs === 0) { watched.delete(message.file); entry.connection.close(); }
  } finally { parentPort.postMessage({ type: "forgotten", ack: message.ack }); }
});
setInterval(() => {
  for (const [file, entry] of watched) {
    try {
      const [result] = entry.connection.pragma("wal_checkpoint(PASSIVE)");
      // Told once per change: a log copied whole reads the same until a commit starts it over.
      const seen = result ? result.log + "/" + result.checkpointed : "";
      if (result && result.checkpointed > 0 && seen !== entry.last)
        parentPort.postMessage({ type: "checkpointed", file, log: result.log, checkpointed: result.checkpointed });
      entry.last = seen;
    } catch (error) { refuse(file, error); }
  }
}, workerData.intervalMs);
`;

interface Checkpointer {
  worker: Worker;
  /** The committing connections whose checkpoints the worker makes, with their files. */
  connections: Map<Database, string>;
  acks: Map<number, () => void>;
  nextAck: number;
  listeners: Set<(report: CheckpointReport) => void>;
}

type CheckpointerGlobal = typeof globalThis & { [CHECKPOINTER]?: Checkpointer | null };
const CHECKPOINTER = Symbol.for("toolnexus.walCheckpointer");
const holder = globalThis as CheckpointerGlobal;

function driverPath(): string | null {
  try {
    // Resolved from the app's root, where both the server and the tests run.
    return createRequire(path.join(process.cwd(), "package.json")).resolve("better-sqlite3");
  } catch {
    return null;
  }
}

function startCheckpointer(): Checkpointer | null {
  const driver = driverPath();
  if (!driver) return null;
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, intervalMs: CHECKPOINT_INTERVAL_MS },
  });
  const checkpointer: Checkpointer = {
    worker,
    connections: new Map(),
    acks: new Map(),
    nextAck: 0,
    listeners: new Set(),
  };
  // Without the worker a connection checkpoints for itself again, as SQLite does unaided.
  const takeBack = (file: string | null, reason: string) => {
    let taken = 0;
    for (const [connection, watched] of checkpointer.connections) {
      if (file !== null && watched !== file) continue;
      checkpointer.connections.delete(connection);
      if (connection.open) connection.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
      taken += 1;
    }
    if (taken > 0) process.emitWarning(`SQLite checkpoints are back on the committing connection: ${reason}`);
  };
  worker.on("message", (message: FromWorker) => {
    if (message.type === "forgotten") {
      checkpointer.acks.get(message.ack)?.();
      checkpointer.acks.delete(message.ack);
      if (checkpointer.acks.size === 0) worker.unref();
    } else if (message.type === "refused") takeBack(message.file, message.reason);
    else for (const listener of checkpointer.listeners) listener(message);
  });
  worker.on("error", (error) => {
    holder[CHECKPOINTER] = null;
    takeBack(null, error.message);
    for (const settle of checkpointer.acks.values()) settle();
  });
  // It must never keep a process alive that has nothing else to do; only after the listeners,
  // since adding a "message" listener refs the worker's port again.
  worker.unref();
  return checkpointer;
}

function checkpointer(): Checkpointer | null {
  if (holder[CHECKPOINTER] === undefined) holder[CHECKPOINTER] = startCheckpointer();
  return holder[CHECKPOINTER];
}

/**
 * Hands `connection`'s checkpoints (a database file in WAL mode) to the worker; returns what
 * its disposal must call, which waits until the worker has closed its own connection. Without a
 * worker the connection keeps checkpointing for itself.
 */
export function watchSqliteCheckpoints({
  file,
  connection,
}: {
  file: string;
  connection: Database;
}): () => Promise<void> {
  // An in-memory database has no log to copy: no worker for it.
  const current = file === ":memory:" ? null : checkpointer();
  if (!current) return async () => {};
  const message: ToWorker = { type: "watch", file };
  current.worker.postMessage(message);
  current.connections.set(connection, file);
  connection.pragma(`wal_autocheckpoint = ${BACKSTOP_AUTOCHECKPOINT_PAGES}`);
  return () =>
    new Promise<void>((resolve) => {
      if (holder[CHECKPOINTER] !== current) return resolve();
      current.connections.delete(connection);
      const ack = current.nextAck++;
      current.acks.set(ack, resolve);
      // A disconnect waiting for the worker keeps the process alive until it is told.
      current.worker.ref();
      const forget: ToWorker = { type: "forget", file, ack };
      current.worker.postMessage(forget);
    });
}

/** Called after every checkpoint that copied pages (tests and diagnostics). */
export function onSqliteCheckpoint(listener: (report: CheckpointReport) => void): () => void {
  const current = checkpointer();
  if (!current) return () => {};
  current.listeners.add(listener);
  return () => current.listeners.delete(listener);
}
