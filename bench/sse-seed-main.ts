// Child process of the `sse-streams` section: a SQLite database for the web server, with the
// demo accounts and `threads` chats of alice@example.com parked on an approval each.

import path from "node:path";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "@/lib/auth/demo-accounts";
import { hashPassword } from "@/lib/auth/verify-credentials";
import { sqliteFileOf } from "@/lib/db/sql/database-url";
import { upsertUserByEmail } from "@/lib/db/users";
import { openBenchDatabase } from "./bench-database";
import { startBenchEngine } from "./bench-engine";
import { childIo } from "./db-child";

export interface SseSeedParams {
  threads: number;
}

export interface SseSeedResult {
  databaseUrl: string;
  keptDirectory: string;
  threadIds: string[];
}

const { threads } = childIo.params<SseSeedParams>();
const database = await openBenchDatabase("sqlite");
childIo.cleanUpOnFailure(() => database.drop());
const passwordHash = await hashPassword(DEMO_PASSWORD);
const users = [];
for (const account of DEMO_ACCOUNTS)
  users.push(await upsertUserByEmail({ db: database.db, ...account, passwordHash }));
const alice = users.find((user) => user.email === "alice@example.com")!;
const created = await database.db.thread.createManyAndReturn({
  data: Array.from({ length: threads }, (_, i) => ({ userId: alice.id, title: `Waiting deploy ${i}` })),
  select: { id: true },
});
const threadIds = created.map((row) => row.id);
// Parked by the engine itself, so each chat has the events a viewer's stream replays.
const bench = await startBenchEngine(database);
for (const threadId of threadIds)
  await bench.engine.startRun({ threadId, userId: alice.id, message: "deploy please" });
await bench.engine.idle();
await bench.close();
const parked = await database.db.run.count({ where: { status: "pending", openRequests: 1 } });
if (parked !== threads) throw new Error(`${threads} runs started, ${parked} parked`);
await database.db.$disconnect();
await childIo.finish({
  databaseUrl: database.url,
  keptDirectory: path.dirname(sqliteFileOf(database.url)),
  threadIds,
} satisfies SseSeedResult);
