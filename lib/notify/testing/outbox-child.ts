// An app instance for the webhook crash test, run as its own process (see the test). With
// DATABASE_URL, LEASE_MS, POLL_MS and START_AFTER_MS it runs the webhook worker, and on a line
// `announce <threadId>` on stdin it commits a `pending` event (and so its outbox entry). It says
// `ready`, then `committed` after each commit, so the parent can SIGKILL it between a commit and
// the delivery, or while an attempt waits for its response.
import { createInterface } from "node:readline";
import { createDb } from "@/lib/db/sql/client";
import { openPushToken, openWebhookSecret } from "../webhook-secret";
import { createWebhookWorker } from "../webhook-worker";
import { appendPending, requestView, testKeys } from "./announce";

const db = createDb({ url: process.env.DATABASE_URL! });
const worker = createWebhookWorker({
  db,
  instanceId: `child-${process.pid}`,
  allowPrivate: true,
  retry: { firstMs: 0, maxMs: 0, jitter: [1, 1] },
  leaseMs: Number(process.env.LEASE_MS),
  pollMs: Number(process.env.POLL_MS),
  openSecret: (id, sealed) => openWebhookSecret(id, sealed, testKeys),
  openPushToken: (id, sealed) => openPushToken(id, sealed, testKeys),
});
// One pass first, then `ready`: from then on the worker sends only after START_AFTER_MS, so a
// test can commit an event and kill this process knowing no attempt can have been made.
await worker.tick();
setTimeout(() => worker.start(), Number(process.env.START_AFTER_MS ?? 0));
process.stdout.write("ready\n");
for await (const line of createInterface({ input: process.stdin })) {
  const [command, threadId] = line.split(" ");
  if (command === "announce" && threadId) {
    await appendPending(db, threadId, [requestView()]);
    process.stdout.write("committed\n");
  }
}
