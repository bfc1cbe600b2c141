import type { Audience, RequestState } from "@/lib/engine/event-types";
import type { DbClient } from "./db-types";

export interface InboxQuery {
  viewer: { id: string; role: "user" | "reviewer" | "admin" };
  kind?: string;
  status: RequestState;
  /** Case-insensitive for ASCII on SQLite, case-sensitive on PostgreSQL. */
  search?: string;
  sort: "newest" | "oldest" | "expiry";
  page: number;
  pageSize: number;
}

export interface InboxRow {
  id: string;
  kind: string;
  prompt: string;
  toolName: string;
  audience: Audience;
  status: RequestState;
  createdAt: string;
  expiresAt: string | null;
  ownerId: string;
  ownerName: string | null;
}

const ORDER = {
  newest: [{ createdAt: "desc" }, { id: "desc" }],
  oldest: [{ createdAt: "asc" }, { id: "asc" }],
  expiry: [{ expiresAt: { sort: "asc", nulls: "last" } }, { createdAt: "asc" }],
} as const;

/**
 * One page of the inbox. Reviewers (and admins) see every approval plus their own requests;
 * users see their own. Filters use the `(status, audience, kind, createdAt)` and
 * `(ownerId, status, createdAt)` indexes.
 */
export async function listInboxRequests({
  db,
  query,
}: {
  db: DbClient;
  query: InboxQuery;
}): Promise<{ rows: InboxRow[]; total: number }> {
  const { viewer } = query;
  const visible =
    viewer.role === "user"
      ? { ownerId: viewer.id }
      : { OR: [{ audience: "reviewers" }, { ownerId: viewer.id }] };
  const where = {
    ...visible,
    status: query.status,
    ...(query.kind ? { kind: query.kind } : {}),
    ...(query.search ? { prompt: { contains: query.search } } : {}),
  };
  const [rows, total] = await Promise.all([
    db.request.findMany({
      where,
      orderBy: [...ORDER[query.sort]],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
      select: {
        id: true,
        kind: true,
        prompt: true,
        toolName: true,
        audience: true,
        status: true,
        createdAt: true,
        expiresAt: true,
        ownerId: true,
        owner: { select: { name: true, email: true } },
      },
    }),
    db.request.count({ where }),
  ]);
  return {
    total,
    rows: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      prompt: row.prompt,
      toolName: row.toolName,
      audience: row.audience as Audience,
      status: row.status as RequestState,
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt?.toISOString() ?? null,
      ownerId: row.ownerId,
      ownerName: row.owner.name ?? row.owner.email,
    })),
  };
}
