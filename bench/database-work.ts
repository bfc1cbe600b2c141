import pg from "pg";

/** What PostgreSQL counted for one database: transactions and rows, from `pg_stat_database`. */
export interface DatabaseWork {
  transactions: number;
  inserted: number;
  updated: number;
  deleted: number;
}

// Each backend hands its counts to the statistics system at most once a second while busy, and
// within about 10 s once idle (PostgreSQL 15's PGSTAT_IDLE_INTERVAL); only its own are flushed
// on request. Reading after that pause counts every backend's work, so the figure is exact for
// rows written: the noise of a shared machine does not reach it, which latency figures cannot say.
const SETTLE_MS = 11_000;

/**
 * A reader of one PostgreSQL database's work so far. Two readings around a stretch of work
 * divided by what was done give the work per item; timers running meanwhile (the engine's
 * sweeps) add a few transactions per second of the stretch, and no rows while nothing is due.
 */
export async function databaseWorkReader(url: string) {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    async read(): Promise<DatabaseWork> {
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      await client.query("SELECT pg_stat_force_next_flush()");
      const { rows } = await client.query<Record<keyof DatabaseWork, string>>(
        `SELECT xact_commit + xact_rollback AS transactions, tup_inserted AS inserted,
          tup_updated AS updated, tup_deleted AS deleted FROM pg_stat_database WHERE datname = $1`,
        [name],
      );
      const row = rows[0]!;
      return {
        transactions: Number(row.transactions),
        inserted: Number(row.inserted),
        updated: Number(row.updated),
        deleted: Number(row.deleted),
      };
    },
    close: () => client.end(),
  };
}

/** (after − before) / items, per figure. */
export function workPer(before: DatabaseWork, after: DatabaseWork, items: number): DatabaseWork {
  const per = (key: keyof DatabaseWork) => (after[key] - before[key]) / items;
  return {
    transactions: per("transactions"),
    inserted: per("inserted"),
    updated: per("updated"),
    deleted: per("deleted"),
  };
}
