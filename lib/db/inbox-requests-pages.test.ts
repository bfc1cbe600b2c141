import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InboxQuery, listInboxRequests } from "./inbox-requests";
import type { Db } from "./sql/client";
import { insertInboxRequest } from "./testing/insert-inbox-request";
import { createTestDatabase, type TestProvider } from "./testing/test-database";

// A reviewer's page is merged from two queries (the reviewers' requests and the viewer's own
// other ones). These rows interleave the two halves in time, tie on creation and expiry
// times, and leave some undated, so a merge that drops, repeats or misorders a row shows up
// against one plain query over the union, ordered by the database.
const vera = { id: "u-vera", role: "reviewer" as const };
const otto = { id: "u-otto", role: "admin" as const };
const ulla = { id: "u-ulla", role: "user" as const };
const KINDS = ["approval", "input", "question", "approval", "authorization"] as const;

const rows = Array.from({ length: 46 }, (_, n) => {
  const kind = KINDS[n % KINDS.length]!;
  return {
    id: `r${String((n * 17) % 46).padStart(2, "0")}`,
    ownerId: [vera.id, ulla.id, otto.id][n % 3]!,
    kind,
    audience: kind === "approval" ? ("reviewers" as const) : ("owner" as const),
    prompt: `${kind} ${n}`,
    // Every third pair of rows shares a creation time; expiry times repeat and some are unset.
    minutesAgo: 500 - Math.floor(n / 2) * 7 - (n % 2) * (n % 3 === 0 ? 0 : 3),
    ...(n % 4 === 3 ? {} : { expiresInMinutes: 60 * ((n * 5) % 7) }),
    ...(n % 9 === 8 ? { status: "answered" } : {}),
  };
});

const ORDER = {
  newest: [{ createdAt: "desc" }, { id: "desc" }],
  oldest: [{ createdAt: "asc" }, { id: "asc" }],
  expiry: [{ expiresAt: { sort: "asc", nulls: "last" } }, { createdAt: "asc" }, { id: "asc" }],
} as const;

describe.each<TestProvider>(["sqlite", "postgres"])("inbox pages on %s", (provider) => {
  let db: Db;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ db, drop } = await createTestDatabase(provider));
    for (const user of [vera, otto, ulla]) {
      await db.user.create({
        data: { id: user.id, name: user.id, role: user.role, email: `${user.id}@example.test` },
      });
    }
    for (const row of rows) await insertInboxRequest({ db, row });
  });
  afterAll(() => drop());

  async function expected(query: Omit<InboxQuery, "page" | "pageSize">): Promise<string[]> {
    const visible =
      query.viewer.role === "user"
        ? { ownerId: query.viewer.id }
        : { OR: [{ audience: "reviewers" }, { ownerId: query.viewer.id }] };
    const found = await db.request.findMany({
      where: { ...visible, status: query.status, ...(query.kind ? { kind: query.kind } : {}) },
      orderBy: [...ORDER[query.sort]],
      select: { id: true },
    });
    return found.map((row) => row.id);
  }

  async function everyPage(query: Omit<InboxQuery, "page" | "pageSize">, pageSize: number) {
    const ids: string[] = [];
    const totals = new Set<number>();
    for (let page = 1; ; page++) {
      const result = await listInboxRequests({ db, query: { ...query, page, pageSize } });
      totals.add(result.total);
      if (result.rows.length === 0) break;
      expect(result.rows.length).toBeLessThanOrEqual(pageSize);
      ids.push(...result.rows.map((row) => row.id));
    }
    return { ids, totals: [...totals] };
  }

  it("the fixture mixes both halves of a reviewer's inbox on every page", async () => {
    const first = await listInboxRequests({
      db,
      query: { viewer: vera, status: "open", sort: "newest", page: 1, pageSize: 4 },
    });
    expect(new Set(first.rows.map((row) => row.audience))).toEqual(new Set(["owner", "reviewers"]));
    expect(new Set(first.rows.map((row) => row.ownerId)).size).toBeGreaterThan(1);
  });

  for (const sort of ["newest", "oldest", "expiry"] as const) {
    for (const kind of [undefined, "approval", "input"]) {
      it(`pages a reviewer's, an admin's and a user's inbox by ${sort}${kind ? `, ${kind} only` : ""}`, async () => {
        for (const viewer of [vera, otto, ulla]) {
          for (const status of ["open", "answered"] as const) {
            const query = { viewer, status, sort, ...(kind ? { kind } : {}) };
            const want = await expected(query);
            for (const pageSize of [1, 3, 5, 50]) {
              expect(await everyPage(query, pageSize)).toEqual({ ids: want, totals: [want.length] });
            }
          }
        }
      });
    }
  }
});
