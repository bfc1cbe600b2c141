import { OUTCOME_LABEL, type Outcome } from "@/lib/domain/outcome";

/** How a request ended, in the app's one set of words, each with its own colour (outcomes.css). */
export function OutcomeBadge({ outcome, as: Tag = "span" }: { outcome: Outcome; as?: "span" | "p" }) {
  return <Tag className={`badge badge-outcome badge-${outcome}`}>{OUTCOME_LABEL[outcome]}</Tag>;
}
