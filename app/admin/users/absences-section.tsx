import { AbsenceForm } from "@/components/absences/absence-form";
import { AbsenceList } from "@/components/absences/absence-list";
import { listCurrentAbsences } from "@/lib/db/absences";
import type { DbClient } from "@/lib/db/db-types";
import { isRunning } from "@/lib/domain/absence";
import { endAbsenceAsAdminAction, setAbsenceAsAdminAction } from "../actions";

/**
 * Everyone's absences that have not ended, and the form with which an admin sets one for
 * anyone (ADR 0098): for someone who cannot, or forgot to, before they left.
 */
export async function AbsencesSection({ db }: { db: DbClient }) {
  const now = new Date();
  const absences = (await listCurrentAbsences({ db, now })).map((absence) => ({
    ...absence,
    running: isRunning({ startsAt: new Date(absence.startsAt), endsAt: new Date(absence.endsAt) }, now),
  }));
  return (
    <section className="card stack" aria-labelledby="absences-title">
      <h2 id="absences-title">Absences</h2>
      <p className="muted">
        While someone is away, what is addressed to them also goes to who covers for them, whose answer counts
        as theirs. Each ends by itself at its end.
      </p>
      <AbsenceList absences={absences} showPerson end={endAbsenceAsAdminAction} label="Everyone's absences" />
      <AbsenceForm person="field" submit={setAbsenceAsAdminAction} />
    </section>
  );
}
