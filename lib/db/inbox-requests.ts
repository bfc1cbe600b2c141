import type { Audience, RequestState } from "@/lib/domain/events";
import type { InboxRow } from "@/lib/domain/inbox";
import { outcomeOf } from "@/lib/domain/outcome";
import type { Actor } from "@/lib/domain/roles";
import { listGroupSlugsForUser } from "./approver-groups";
import { listCoveringFor } from "./covering-rows";
import type { DbClient } from "./db-types";
import { listEscalationStepsByRequest } from "./escalation-steps";
import { listNamedHalfIds } from "./named-half";
import { toRequestOrigins } from "./request-origins";
import { textSearchWhere } from "./text-search";
import { listVoteTallies } from "./vote-tallies";

export interface InboxQuery {
  viewer: Actor;
  kind?: string;
  status: RequestState;
  /**
   * Literal (`%` and `_` are plain characters) and case-insensitive on both databases
   * (PostgreSQL also folds non-ASCII letters; SQLite only ASCII).
   */
  search?: string;
  sort: "newest" | "oldest" | "expiry";
  page: number;
  pageSize: number;
}

// id breaks ties so that every sort is a total order: the reviewer's page is merged from two
// queries and must come out the same however the rows are split between them.
const ORDER = {
  newest: [{ createdAt: "desc" }, { id: "desc" }],
  oldest: [{ createdAt: "asc" }, { id: "asc" }],
  expiry: [{ expiresAt: { sort: "asc", nulls: "last" } }, { createdAt: "asc" }, { id: "asc" }],
} as const;

const SELECT = {
  id: true,
  kind: true,
  prompt: true,
  toolName: true,
  // A row shows its headline value (a refund's amount, a deploy's version) beside the prompt.
  args: true,
  audience: true,
  audienceGroup: true,
  required: true,
  status: true,
  createdAt: true,
  expiresAt: true,
  ownerId: true,
  owner: { select: { name: true, email: true } },
  origin: true,
  apiTokenId: true,
  // A closed row shows how it ended (approved, declined…), which its status alone does not say.
  answer: { select: { ok: true, reason: true } },
} as const;

/** Whose requests one query of the inbox reads (see `inboxHalvesOf`). */
export type InboxHalf = {
  ownerId?: string | { not: string };
  audience?: string | { not: string };
  /** The approver groups whose requests the viewer votes on (admins: every group's). */
  audienceGroup?: { in: string[] };
  /** The named half's rows (named-half.ts). */
  id?: { in: string[] };
};

/**
 * What the viewer's inbox lists, as the queries that read it: a user's own requests, or for
 * reviewers (and admins) the reviewers' requests and, apart from them, the viewer's own others.
 * The page and its version read the same halves, so the version moves whenever a page can.
 */
export function inboxHalvesOf(viewer: InboxQuery["viewer"]): [InboxHalf] | [InboxHalf, InboxHalf] {
  return viewer.role === "user"
    ? [{ ownerId: viewer.id }]
    : [{ audience: "reviewers" }, { ownerId: viewer.id, audience: { not: "reviewers" } }];
}

/**
 * The requests addressed to approver groups that the viewer did not ask for themselves (their
 * own are in their own half): their groups' as a member, every group's as an admin, who audits
 * them. Null when there are none to read.
 */
export async function groupHalfOf(db: DbClient, viewer: InboxQuery["viewer"]): Promise<InboxHalf | null> {
  const mine = { audience: "group", ownerId: { not: viewer.id } };
  if (viewer.role === "admin") return mine;
  const slugs = await listGroupSlugsForUser({ db, userId: viewer.id });
  return slugs.length === 0 ? null : { ...mine, audienceGroup: { in: slugs } };
}

type Where = InboxHalf & { status: string; kind?: string };
type Found = Awaited<ReturnType<typeof findPage>>[number];

function findPage(db: DbClient, where: Where, sort: InboxQuery["sort"], skip: number, take: number) {
  return db.request.findMany({ where, orderBy: [...ORDER[sort]], skip, take, select: SELECT });
}

/** Negative when `a` comes first in the inbox's `sort` order. */
function compareRows(a: Found, b: Found, sort: InboxQuery["sort"]): number {
  const byId = a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  const byCreated = a.createdAt.getTime() - b.createdAt.getTime() || byId;
  if (sort === "newest") return -byCreated;
  if (sort === "oldest") return byCreated;
  if (a.expiresAt === null || b.expiresAt === null) {
    if (a.expiresAt !== b.expiresAt) return a.expiresAt === null ? 1 : -1;
    return byCreated;
  }
  return a.expiresAt.getTime() - b.expiresAt.getTime() || byCreated;
}

// A two-way merge rather than a sort: the merged prefix depends only on the two prefixes, so
// consecutive pages never skip or repeat a row even where the database orders ties differently.
function mergeRows(left: Found[], right: Found[], sort: InboxQuery["sort"]): Found[] {
  const merged: Found[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) {
    merged.push(compareRows(left[i]!, right[j]!, sort) <= 0 ? left[i++]! : right[j++]!);
  }
  return merged.concat(left.slice(i), right.slice(j));
}

/**
 * One page of the inbox. Reviewers (and admins) see every approval plus their own requests;
 * users see their own. A reviewer's page is two queries merged here, the reviewers' requests
 * and the viewer's own other ones, because each half then reads its rows in page order from
 * an index, where one query over their union made the database gather every open request and
 * sort them. Indexes: `(status, audience, createdAt, id)`, the same with `kind` or `expiresAt`
 * before `createdAt`, and `(ownerId, status, createdAt)` / `(ownerId, status, expiresAt,
 * createdAt, id)`. Each half returns its first `page * pageSize` rows, so deep pages cost more;
 * the inbox's first pages are what matter.
 */
export async function listInboxRequests({
  db,
  query,
}: {
  db: DbClient;
  query: InboxQuery;
}): Promise<{ rows: InboxRow[]; total: number }> {
  const { viewer, sort, page, pageSize } = query;
  const filters = {
    status: query.status,
    ...(query.kind ? { kind: query.kind } : {}),
    ...(query.search ? await textSearchWhere({ db, table: "Request", text: query.search }) : {}),
  };
  const [groupHalf, named] = await Promise.all([
    groupHalfOf(db, viewer),
    listNamedHalfIds({ db, viewer, status: query.status }),
  ]);
  const namedHalf = named.length > 0 ? [{ id: { in: named } }] : [];
  const halves = [...inboxHalvesOf(viewer), ...(groupHalf ? [groupHalf] : []), ...namedHalf].map((half) => ({
    ...filters,
    ...half,
  }));
  let found: Found[];
  let total: number;
  if (halves.length === 1) {
    [found, total] = await Promise.all([
      findPage(db, halves[0]!, sort, (page - 1) * pageSize, pageSize),
      db.request.count({ where: halves[0]! }),
    ]);
  } else {
    const [pages, counts] = await Promise.all([
      Promise.all(halves.map((half) => findPage(db, half, sort, 0, page * pageSize))),
      Promise.all(halves.map((half) => db.request.count({ where: half }))),
    ]);
    found = pages
      .reduce((merged, next) => mergeRows(merged, next, sort))
      .slice((page - 1) * pageSize, page * pageSize);
    total = counts.reduce((a, b) => a + b, 0);
  }
  const origins = await toRequestOrigins({
    db,
    rows: found.map((row) => ({ ...row, ownerName: row.owner.name ?? row.owner.email })),
  });
  const namedIds = new Set(named);
  const [tallies, ladders, covering] = await Promise.all([
    listVoteTallies({ db, requests: found }),
    listEscalationStepsByRequest({ db, requestRowIds: found.map((row) => row.id) }),
    // An admin may cover a group's member on its requests listed in their all-groups half.
    listCoveringFor({
      db,
      viewer,
      rows: viewer.role === "admin" ? found : found.filter((row) => namedIds.has(row.id)),
    }),
  ]);
  return {
    total,
    rows: found.map((row) => {
      const tally = tallies.get(row.id);
      const escalation = ladders.get(row.id)?.filter((step) => step.firedAt !== null);
      const coveringFor = covering.get(row.id);
      return {
        ...toInboxRow(row, origins.get(row.id)!),
        ...(tally ? { tally } : {}),
        ...(coveringFor ? { coveringFor } : {}),
        ...(escalation?.length ? { escalation } : {}),
      };
    }),
  };
}

function toInboxRow(row: Found, origin: InboxRow["origin"]): InboxRow {
  return {
    id: row.id,
    kind: row.kind,
    prompt: row.prompt,
    toolName: row.toolName,
    args: row.args,
    audience: row.audience as Audience,
    status: row.status as RequestState,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    ownerId: row.ownerId,
    ownerName: row.owner.name ?? row.owner.email,
    origin,
    ...(row.status !== "open" ? { outcome: closedOutcome(row) } : {}),
  };
}

function closedOutcome(row: Found) {
  if (row.status === "expired" || row.status === "cancelled") return row.status;
  return outcomeOf(row.kind, row.answer ?? { ok: false });
}
