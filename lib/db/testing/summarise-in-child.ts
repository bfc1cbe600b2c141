// Child process for the racing-summaries test: another instance of the app on the same database.
// Connects, reports "ready", waits for "go" on stdin, runs one summarising pass and prints the
// days it wrote as JSON.
// Run with: node --conditions=react-server --import tsx lib/db/testing/summarise-in-child.ts <url> <now> <since>
import { createInterface } from "node:readline";
import { summariseClosedDays } from "../insight-summaries";
import { createDb } from "../sql/client";

const [url, now, since] = process.argv.slice(2);
if (!url || !now || !since) throw new Error("usage: summarise-in-child.ts <database url> <now> <since>");

const db = createDb({ url, poolMax: 2 });
await db.insightDay.count();
process.stdout.write("ready\n");

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() !== "go") continue;
  const written = await summariseClosedDays({ db, now: new Date(now), since: new Date(since) });
  process.stdout.write(`${JSON.stringify(written)}\n`);
  break;
}
lines.close();
await db.$disconnect();
