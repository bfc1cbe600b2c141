import "server-only";
import type { RequestOrigin } from "@/lib/domain/request-origin";
import type { DbClient } from "./db-types";

/** What of a request row tells who asked; `ownerName` is the owner's name, else their email. */
export interface OriginFields {
  id: string;
  origin: string;
  apiTokenId: string | null;
  ownerName: string | null;
}

/**
 * Who asked for each of `rows`, by request id: the API token's name is read by id, in one query
 * for all of them (a request keeps a plain token id, so a deleted token leaves no name).
 */
export async function toRequestOrigins({
  db,
  rows,
}: {
  db: DbClient;
  rows: OriginFields[];
}): Promise<Map<string, RequestOrigin>> {
  const tokenIds = [
    ...new Set(rows.flatMap((row) => (row.origin === "api" && row.apiTokenId ? [row.apiTokenId] : []))),
  ];
  const tokens =
    tokenIds.length === 0
      ? []
      : await db.apiToken.findMany({ where: { id: { in: tokenIds } }, select: { id: true, name: true } });
  const names = new Map(tokens.map((token) => [token.id, token.name]));
  return new Map(
    rows.map((row): [string, RequestOrigin] => {
      const ownerName = row.ownerName ?? "someone";
      return [
        row.id,
        row.origin === "api"
          ? { via: "api", ownerName, tokenName: (row.apiTokenId && names.get(row.apiTokenId)) ?? null }
          : { via: "chat", ownerName },
      ];
    }),
  );
}

/** Who asked for each of the requests `ids` (their row ids); unknown ids are left out. */
export async function listRequestOriginsByIds({
  db,
  ids,
}: {
  db: DbClient;
  ids: string[];
}): Promise<Map<string, RequestOrigin>> {
  if (ids.length === 0) return new Map();
  const rows = await db.request.findMany({
    where: { id: { in: ids } },
    select: { id: true, origin: true, apiTokenId: true, owner: { select: { name: true, email: true } } },
  });
  return toRequestOrigins({
    db,
    rows: rows.map((row) => ({ ...row, ownerName: row.owner.name ?? row.owner.email })),
  });
}
