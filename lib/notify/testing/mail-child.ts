// An app instance for the mail crash test, run as its own process: the mail worker on
// DATABASE_URL, sending to SMTP_URL, on a clock fixed at CLOCK_MS (so the test decides when a
// digest is due), with LEASE_MS and POLL_MS. It says `ready` once started.
import { createDb } from "@/lib/db/sql/client";
import { readMailConfig } from "../mail-config";
import { createMailWorker } from "../mail-worker";

const clock = new Date(Number(process.env.CLOCK_MS));
const worker = createMailWorker({
  db: createDb({ url: process.env.DATABASE_URL! }),
  instanceId: `mail-child-${process.pid}`,
  mail: readMailConfig({ TOOLNEXUS_SMTP_URL: process.env.SMTP_URL }),
  appUrl: "https://app.example.test",
  now: () => clock,
  leaseMs: Number(process.env.LEASE_MS),
  pollMs: Number(process.env.POLL_MS),
});
worker.start();
process.stdout.write("ready\n");
