import { rm } from "node:fs/promises";
import type { BenchProvider } from "./bench-database";
import { type BenchSection, type Comparison, compare, type ResultRow } from "./bench-section";
import { runDbChild } from "./db-child";
import { measureInboxHttp } from "./inbox-http";
import type { InboxQueryParams, InboxQueryResult } from "./inbox-query-main";

const REQUESTS = 100_000;
const SMOKE_REQUESTS = 200;
const FIRST_PAGE_TARGET_MS = 20;

/** Results 4 in docs/benchmarks.md: the inbox with 100,000 stored requests. */
export const inboxAtScaleSection: BenchSection = {
  name: "inbox-at-scale",
  title: "Inbox at 100,000 stored requests",
  async run({ iterations, warmup, smoke, log }) {
    const requests = smoke ? SMOKE_REQUESTS : REQUESTS;
    const rows: ResultRow[] = [];
    const comparisons: Comparison[] = [];
    const notes: string[] = [
      `${requests} requests over 50 owners (the four demo accounts among them), ten per run, one run per thread, a month of history; kinds approval/input/question/authorization in turn (approvals go to reviewers), runs 30% open, 50% answered, 10% expired, 10% cancelled.`,
      "Server time = one call of listInboxRequests (lib/db/inbox-requests.ts), the function app/inbox/page.tsx calls, with the page's first-visit query: open, newest first, page 1 of 20; the reviewer and the user alternate. Both the page rows and the total count are included, and checked against the fixture.",
    ];
    let kept: InboxQueryResult | undefined;
    try {
      for (const provider of ["sqlite", "postgres"] as BenchProvider[]) {
        const params: InboxQueryParams = {
          provider,
          requests,
          // Queries are cheaper than engine cycles, but 100k rows make each one count: cap the run.
          iterations: Math.min(iterations, 300),
          warmup: Math.min(warmup, 50),
          keep: provider === "sqlite" && !smoke,
        };
        const result = await runDbChild<InboxQueryResult>({
          script: "bench/inbox-query-main.ts",
          params,
          log,
        });
        if (result.keptDirectory) kept = result;
        rows.push(...result.rows);
        notes.push(
          `${provider}: ${requests} requests stored in ${result.seedSeconds.toFixed(1)} s (batched inserts).`,
        );
        for (const [who, p50] of [
          ["reviewer", result.reviewerP50],
          ["user", result.userP50],
        ] as const) {
          comparisons.push(
            compare(
              `${provider} first page p50, ${who} / ${FIRST_PAGE_TARGET_MS} ms target`,
              p50 / FIRST_PAGE_TARGET_MS,
              1,
            ),
          );
        }
      }
      if (smoke) notes.push("smoke run: HTTP throughput not measured (it needs a production build)");
      else if (kept?.databaseUrl) {
        const http = await measureInboxHttp({
          databaseUrl: kept.databaseUrl,
          expectedTotal: kept.reviewerTotal,
          connections: 10,
          seconds: 15,
          log,
        });
        rows.push(...http.rows);
        notes.push(...http.notes);
      }
    } finally {
      if (kept?.keptDirectory) await rm(kept.keptDirectory, { recursive: true, force: true });
    }
    return { status: "done", rows, comparisons, notes };
  },
};
