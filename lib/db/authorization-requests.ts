import type { Request } from "@/lib/toolnexus/types";
import type { DbClient } from "./db-types";
import { restorePropertyOrder } from "./property-order";

export interface AuthorizationRequestRow {
  id: string;
  requestId: string;
  threadId: string;
  ownerId: string;
  status: string;
  expiresAt: Date | null;
  request: Request;
}

/**
 * Finds the parked authorization request a start link names. Sign-in tools give their requests
 * ids derived from the run and tool call, so the wire id identifies one row; the newest wins
 * if a custom tool ever reuses one.
 */
export async function getAuthorizationRequestByWireId({
  db,
  wireId,
}: {
  db: DbClient;
  wireId: string;
}): Promise<AuthorizationRequestRow | null> {
  const row = await db.request.findFirst({
    where: { requestId: wireId, kind: "authorization" },
    orderBy: { createdAt: "desc" },
    select: {
      id: true,
      requestId: true,
      threadId: true,
      ownerId: true,
      status: true,
      expiresAt: true,
      payload: true,
    },
  });
  if (!row) return null;
  const { payload, ...rest } = row;
  return { ...rest, request: restorePropertyOrder(payload as unknown as Request) };
}
