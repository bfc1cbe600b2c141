// Child process of the `inbox-at-scale` section (see bench/db-child.ts for how it runs).
import path from "node:path";
import { INBOX_PAGE_SIZE } from "@/app/inbox/_lib/inbox-filters";
import { listInboxRequests } from "@/lib/db/inbox-requests";
import { listDueRequests } from "@/lib/db/requests";
import { sqliteFileOf } from "@/lib/db/sql/database-url";
import type { Actor } from "@/lib/domain/roles";
import { type BenchProvider, openBenchDatabase } from "./bench-database";
import type { ResultRow } from "./bench-section";
import { childIo } from "./db-child";
import { seedInbox } from "./inbox-fixture";
import { summarize } from "./stats";

export interface InboxQueryParams {
  provider: BenchProvider;
  requests: number;
  iterations: number;
  warmup: number;
  /** Leave the SQLite file in place for a web server; the caller removes `keptDirectory`. */
  keep: boolean;
}

export interface InboxQueryResult {
  rows: ResultRow[];
  reviewerP50: number;
  userP50: number;
  seedSeconds: number;
  /** Open requests the reviewer's inbox lists in all: the page's "N requests" line. */
  reviewerTotal: number;
  databaseUrl?: string;
  keptDirectory?: string;
}

const { provider, requests, iterations, warmup, keep } = childIo.params<InboxQueryParams>();
const database = await openBenchDatabase(provider);
childIo.cleanUpOnFailure(() => database.drop());
childIo.progress(`${provider}: storing ${requests} requests`);
const seedStarted = performance.now();
const fixture = await seedInbox({ db: database.db, requests });
const seedSeconds = (performance.now() - seedStarted) / 1000;

// Exactly what app/inbox/page.tsx asks for on a first visit: open requests, newest first, page 1.
const firstPage = async (viewer: Actor, expectedTotal: number) => {
  const started = performance.now();
  const { rows, total } = await listInboxRequests({
    db: database.db,
    query: { viewer, status: "open", sort: "newest", page: 1, pageSize: INBOX_PAGE_SIZE },
  });
  const elapsed = performance.now() - started;
  if (total !== expectedTotal || rows.length !== Math.min(INBOX_PAGE_SIZE, expectedTotal))
    throw new Error(`inbox for ${viewer.role}: ${rows.length} rows of ${total}, expected ${expectedTotal}`);
  return elapsed;
};
// The page closes due requests before it lists; with the sweep running every second there are none.
const dueSweep = async () => {
  const started = performance.now();
  const due = await listDueRequests({ db: database.db, now: new Date() });
  if (due.length !== 0) throw new Error(`${due.length} due requests in the fixture`);
  return performance.now() - started;
};

const reviewer: number[] = [];
const user: number[] = [];
const sweep: number[] = [];
for (let i = 0; i < warmup + iterations; i++) {
  // Alternate who goes first, so neither viewer always finds the other's pages in the cache.
  const order = i % 2 === 0 ? ["reviewer", "user"] : ["user", "reviewer"];
  for (const who of order) {
    const ms =
      who === "reviewer"
        ? await firstPage(fixture.reviewer, fixture.openForReviewer)
        : await firstPage(fixture.user, fixture.openForUser);
    if (i >= warmup) (who === "reviewer" ? reviewer : user).push(ms);
  }
  const ms = await dueSweep();
  if (i >= warmup) sweep.push(ms);
}

const row = (label: string, values: number[]): ResultRow => {
  const s = summarize(values);
  return { label: `${provider}: ${label}`, unit: "ms", p50: s.p50, p95: s.p95, n: s.n };
};
const rows = [
  row(`inbox first page, reviewer (${fixture.openForReviewer} open visible)`, reviewer),
  row(`inbox first page, user (${fixture.openForUser} open visible)`, user),
  row("due-request sweep the page runs first", sweep),
];
await database.db.$disconnect();
if (!keep) await database.drop();
await childIo.finish({
  rows,
  reviewerP50: summarize(reviewer).p50,
  userP50: summarize(user).p50,
  seedSeconds,
  reviewerTotal: fixture.openForReviewer,
  ...(keep ? { databaseUrl: database.url, keptDirectory: path.dirname(sqliteFileOf(database.url)) } : {}),
} satisfies InboxQueryResult);
