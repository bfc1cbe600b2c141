import { AbsenceForm } from "@/components/absences/absence-form";
import { AbsenceList } from "@/components/absences/absence-list";
import { LocalTime } from "@/components/local-time";
import { listAbsencesOfUser, listCoveredPeople } from "@/lib/db/absences";
import type { DbClient } from "@/lib/db/db-types";
import { isRunning } from "@/lib/domain/absence";
import { endOwnAbsenceAction, setOwnAbsenceAction } from "./actions";

/**
 * "Away": the person's absences to come and running, the form that sets one, and whom they
 * cover for now (ADR 0098). Read at `now`, so one that has ended by itself is simply gone.
 */
export async function AwaySection({ db, userId }: { db: DbClient; userId: string }) {
  const now = new Date();
  const [absences, covered] = await Promise.all([
    listAbsencesOfUser({ db, userId, now }),
    listCoveredPeople({ db, delegateId: userId, now }),
  ]);
  const listed = absences.map((absence) => ({
    ...absence,
    running: isRunning({ startsAt: new Date(absence.startsAt), endsAt: new Date(absence.endsAt) }, now),
  }));
  return (
    <section className="card stack" aria-labelledby="away-title">
      <h2 id="away-title">Away</h2>
      {covered.length > 0 && (
        <ul className="alert alert-info absence-covering" aria-label="You are covering for">
          {covered.map((person) => (
            <li key={person.userId}>
              You are covering for {person.name ? `${person.name} (${person.email})` : person.email} until{" "}
              <LocalTime dateTime={person.endsAt.toISOString()} />: what is addressed to them is in your inbox
              too.
            </li>
          ))}
        </ul>
      )}
      <p>
        While you are away, what is addressed to you also goes to the person you name, and their answer counts
        as yours.
      </p>
      <AbsenceList absences={listed} end={endOwnAbsenceAction} label="Your absences" />
      <AbsenceForm submit={setOwnAbsenceAction} />
    </section>
  );
}
