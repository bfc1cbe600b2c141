import Link from "next/link";
import { loadRequestDetail } from "@/app/requests/_lib/load-request-detail";
import { RequestDetailView } from "@/app/requests/request-detail";
import type { SessionUser } from "@/lib/auth/session-user";
import type { DbClient } from "@/lib/db/db-types";
import type { Engine } from "@/lib/engine/engine-types";
import { isAppError } from "@/lib/errors";

/**
 * The right-hand side of the split view: the selected request, read and answered exactly as on
 * its own page. An id the viewer may not see reads as one that does not exist.
 */
export async function InboxDetail({
  selected,
  user,
  listHref,
  services,
}: {
  selected: string;
  user: SessionUser;
  /** The list without the selection, for the way back on a narrow screen. */
  listHref: string;
  services: { db: DbClient; engine: Engine };
}) {
  const detail = await loadRequestDetail({ actor: user, requestId: selected }, services).catch(
    (error: unknown) => {
      if (isAppError(error, "not_found:request")) return null;
      throw error;
    },
  );
  return (
    <>
      <p className="inbox-back">
        <Link href={listHref}>Back to the list</Link>
      </p>
      {detail ? (
        <>
          <RequestDetailView detail={detail} level={2} />
          <p className="muted">
            <Link href={`/requests/${detail.id}`}>Open on its own page</Link>
          </p>
        </>
      ) : (
        <p className="alert alert-error" role="alert">
          This request does not exist.
        </p>
      )}
    </>
  );
}
