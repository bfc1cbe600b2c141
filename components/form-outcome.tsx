/**
 * What a settings form's last save did: a status when it worked, an alert when it did not, so a
 * screen reader announces a failure at once and a success politely.
 */
export function FormOutcome({ outcome }: { outcome: { ok: boolean; text: string } | null }) {
  if (!outcome) return null;
  return (
    <p
      role={outcome.ok ? "status" : "alert"}
      className={outcome.ok ? "alert alert-info" : "alert alert-error"}
    >
      {outcome.text}
    </p>
  );
}
