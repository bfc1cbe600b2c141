// Child process for the cross-process claim test: connects, reports "ready", waits for "go" on
// stdin, then tries the same conditional update as every other child and prints its count.
// Run with: node --conditions=react-server --import tsx lib/db/testing/claim-in-child.ts <url> <id>
import { createInterface } from "node:readline";
import { createDb } from "../sql/client";

const [url, id] = process.argv.slice(2);
if (!url || !id) throw new Error("usage: claim-in-child.ts <database url> <request row id>");

const db = createDb({ url, poolMax: 1 });
await db.request.findUniqueOrThrow({ where: { id } });
process.stdout.write("ready\n");

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() !== "go") continue;
  const { count } = await db.request.updateMany({
    where: { id, status: "open" },
    data: { status: "answered", resolvedAt: new Date() },
  });
  process.stdout.write(`count ${count}\n`);
  break;
}
lines.close();
await db.$disconnect();
