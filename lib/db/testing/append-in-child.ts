// Child process for the event log's concurrency tests: connects, reports "ready", waits for "go"
// on stdin, appends its batches of text events to one thread (all at once, each batch in a
// transaction of its own) and prints the seqs every batch got as one JSON line.
// Run with: node --conditions=react-server --import tsx lib/db/testing/append-in-child.ts <url> <thread id> <batches json>
import { createInterface } from "node:readline";
import { appendEvents } from "../events";
import { createDb } from "../sql/client";
import { engineTransaction } from "../sql/transaction-options";

const [url, threadId, batchesJson] = process.argv.slice(2);
if (!url || !threadId || !batchesJson)
  throw new Error("usage: append-in-child.ts <database url> <thread id> <batches json>");
const batches = JSON.parse(batchesJson) as string[][];

const db = createDb({ url, poolMax: 3 });
await db.thread.findUniqueOrThrow({ where: { id: threadId } });
process.stdout.write("ready\n");

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() !== "go") continue;
  const seqs = await Promise.all(
    batches.map(async (deltas) => {
      const events = await db.$transaction(
        (tx) =>
          appendEvents({
            tx,
            threadId,
            runId: null,
            bodies: deltas.map((delta) => ({ type: "text", delta })),
          }),
        engineTransaction,
      );
      return events.map((event) => event.seq);
    }),
  );
  process.stdout.write(`seqs ${JSON.stringify(seqs)}\n`);
  break;
}
lines.close();
await db.$disconnect();
