"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { LocalTime } from "@/components/local-time";
import type { AbsenceView } from "@/lib/domain/absence";
import { type ActionResult, unsentResult } from "@/lib/errors";

/** An absence as the list shows it; `running` is decided by the server's clock. */
export type ListedAbsence = AbsenceView & { running: boolean };

function delegateWords(absence: AbsenceView): string {
  return absence.delegateName ? `${absence.delegateName} (${absence.delegateEmail})` : absence.delegateEmail;
}

/**
 * Absences that have not ended, soonest first: running now or when each starts, who covers, and
 * a button that ends a running one now or removes one not begun. `showPerson`: whose it is (the
 * admins' list of everyone's).
 */
export function AbsenceList({
  absences,
  showPerson = false,
  end,
  label,
}: {
  absences: ListedAbsence[];
  showPerson?: boolean;
  end: (input: { id: string }) => Promise<ActionResult<unknown>>;
  label: string;
}) {
  const router = useRouter();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  if (absences.length === 0) return <p className="muted">No absences set.</p>;

  const onEnd = async (id: string) => {
    setBusy(id);
    setError(null);
    const result = await end({ id }).catch(() => unsentResult("It could not be ended. Please try again."));
    setBusy(null);
    if (!result.ok) setError(result.error.message);
    router.refresh();
  };

  return (
    <>
      <ul className="absence-list" aria-label={label}>
        {absences.map((absence) => {
          const whose = showPerson ? `${absence.userEmail} ` : "";
          return (
            <li key={absence.id} className="absence-item">
              <p>
                {showPerson && <strong>{absence.userEmail}</strong>}
                {showPerson && " · "}
                {absence.running ? (
                  <span className="badge">Running now</span>
                ) : (
                  <>
                    Starts <LocalTime dateTime={absence.startsAt} />
                  </>
                )}
                {", until "}
                <LocalTime dateTime={absence.endsAt} />
                {" · covered by "}
                {delegateWords(absence)}
                {absence.createdById !== absence.userId && " · set by an admin"}
              </p>
              <button
                type="button"
                className="button button-secondary"
                disabled={busy !== null}
                aria-label={`${absence.running ? "End now" : "Remove"}: ${whose}absence ${absence.running ? "running now" : "to come"}, covered by ${absence.delegateEmail}`}
                onClick={() => onEnd(absence.id)}
              >
                {absence.running ? "End now" : "Remove"}
              </button>
            </li>
          );
        })}
      </ul>
      {error && (
        <p role="alert" className="alert alert-error">
          {error}
        </p>
      )}
    </>
  );
}
