/** An approver group as the admin page shows it. */
export interface ApproverGroupRow {
  id: string;
  slug: string;
  name: string;
  members: { userId: string; email: string | null; name: string | null; addedAt: string }[];
  /** The rules that address the group, "refund rule 1": while any does, it cannot be deleted. */
  usedBy: string[];
}
