// Where a group's request stands, as the inbox, the request page and the chat card show it
// (ADR 0076): "1 of 2 approvals — Rita, 2m ago", who may still vote, and the votes that no
// longer count.

export interface TallyVote {
  name: string;
  at: string;
}

export interface VoteTally {
  group: string;
  required: number;
  /** Approvals that count, oldest first. */
  approvals: TallyVote[];
  /** The decline that settled it, if one did. */
  declined: (TallyVote & { reason?: string }) | null;
  /** Members who have not voted and may (the asker never may). */
  stillToVote: string[];
  /** Approvals of arguments that were edited after them: they no longer count. */
  voided: TallyVote[];
  /** Votes that came after the request was settled. */
  late: TallyVote[];
}

/** "1 of 2 approvals — Rita, 2m ago" (the latest approval), or "0 of 2 approvals". */
export function tallyLine(tally: VoteTally, age: (at: string) => string): string {
  const count = `${tally.approvals.length} of ${tally.required} approval${tally.required === 1 ? "" : "s"}`;
  const latest = tally.approvals.at(-1);
  return latest ? `${count} — ${latest.name}, ${age(latest.at)}` : count;
}
