// Escalation ladders (ADR 0093): the steps a request takes by itself while nobody answers it,
// each "after <duration> from when it was asked". A rule that sends a call to a group or to any
// reviewer may carry one, and so may a request made through the API; the request keeps the
// ladder it was made with, one row per step, and the engine's expiry sweep fires each step once.

/** What a step does when its time comes. */
export type EscalationAction =
  /** Mail the current addressees again. */
  | "remind"
  /** Widen the addressees: a group (with its own quorum, `required`) or a person, by email. */
  | { add: string; required?: number }
  /** Answer the request declined, with this reason. */
  | { decline: string }
  /** Let the request expire now. */
  | "expire";

/** One step as written: `after` is a duration such as "30s", "15m", "2h" or "1d". */
export interface EscalationStep {
  after: string;
  action: EscalationAction;
}

/** A step as the request shows it: when it was due, and when (and how late) it fired. */
export interface EscalationStepView {
  position: number;
  after: string;
  action: EscalationAction;
  dueAt: string;
  firedAt: string | null;
  /** How long after `dueAt` it fired; set with `firedAt`. */
  lateMs: number | null;
}

export const ESCALATION_STEPS_MAX = 10;
export const ESCALATION_REASON_MAX_LENGTH = 500;
/** A step that fires this long after it was due says it was late (the sweep runs every second). */
export const ESCALATION_LATE_AFTER_MS = 30_000;

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION = /^(-?\d{1,7})(s|m|h|d)$/;

/** A duration in milliseconds, or a sentence saying what is wrong with it. */
export function parseDuration(text: string): { ok: true; ms: number } | { ok: false; message: string } {
  const match = DURATION.exec(text.trim());
  if (!match) return { ok: false, message: 'A duration such as "30s", "15m", "2h" or "1d".' };
  const amount = Number(match[1]);
  if (amount <= 0) return { ok: false, message: "A step must come after more than zero time." };
  return { ok: true, ms: amount * UNIT_MS[match[2] as keyof typeof UNIT_MS] };
}

/** Whether `add` names a person (an email) rather than a group (a slug). */
export function addsPerson(action: { add: string }): boolean {
  return action.add.includes("@");
}

export function isTerminal(action: EscalationAction): boolean {
  return action === "expire" || (typeof action === "object" && "decline" in action);
}

/** "reminded", "escalated to sre-leads", "declined", "expired": what a fired step did, for people. */
export function describeFiredStep(action: EscalationAction): string {
  if (action === "remind") return "reminded";
  if (action === "expire") return "expired";
  if ("add" in action) return `escalated to ${action.add}`;
  return "declined";
}

/** "after 15m: escalate to sre-leads (2 approve)": how the editor and the audit name a step. */
export function describeStep(step: EscalationStep): string {
  const { action } = step;
  const what =
    action === "remind"
      ? "remind"
      : action === "expire"
        ? "expire"
        : "add" in action
          ? `escalate to ${action.add}${action.required && action.required > 1 ? ` (${action.required} approve)` : ""}`
          : `decline ("${action.decline}")`;
  return `after ${step.after}: ${what}`;
}

export function isLate(step: Pick<EscalationStepView, "lateMs">): boolean {
  return step.lateMs !== null && step.lateMs > ESCALATION_LATE_AFTER_MS;
}

/** A field and what is wrong with it, as the app's refusals name them. */
export interface LadderIssue {
  path: string;
  message: string;
}

/**
 * Checks a ladder's shape and times against the request's expiry (`expiresInMs` from when it is
 * asked; undefined when it never expires). Names of groups and people are checked by the caller,
 * which can read them (`unknownAddressIssues`). `base` is the ladder's path, "/escalation".
 */
export function checkLadder(
  steps: readonly EscalationStep[],
  { expiresInMs, base }: { expiresInMs: number | undefined; base: string },
): LadderIssue[] {
  const issues: LadderIssue[] = [];
  if (steps.length > ESCALATION_STEPS_MAX)
    issues.push({ path: base, message: `At most ${ESCALATION_STEPS_MAX} steps.` });
  let previous = 0;
  for (const [index, step] of steps.entries()) {
    const at = `${base}/${index}`;
    const duration = parseDuration(step.after);
    if (!duration.ok) issues.push({ path: `${at}/after`, message: duration.message });
    else if (expiresInMs !== undefined && duration.ms > expiresInMs)
      issues.push({ path: `${at}/after`, message: "This step comes after the request expires." });
    else if (duration.ms < previous)
      issues.push({
        path: `${at}/after`,
        message: "Steps go in order: this one comes before the step above it.",
      });
    if (duration.ok) previous = Math.max(previous, duration.ms);
    if (index > 0 && isTerminal(steps[index - 1]!.action))
      issues.push({
        path: `${at}/action`,
        message: "Nothing can follow a step that declines or expires the request.",
      });
    const { action } = step;
    if (typeof action === "object" && "decline" in action && action.decline.trim() === "")
      issues.push({ path: `${at}/action/decline`, message: "Say why it is declined." });
  }
  return issues;
}

/** The ladder a request's data carries (the gate writes it), or none when it is not one. */
export function ladderOf(value: unknown): EscalationStep[] {
  if (!Array.isArray(value)) return [];
  return value.filter((step): step is EscalationStep => {
    if (typeof step !== "object" || step === null) return false;
    const { after, action } = step as Record<string, unknown>;
    if (typeof after !== "string" || !parseDuration(after).ok) return false;
    if (action === "remind" || action === "expire") return true;
    if (typeof action !== "object" || action === null) return false;
    const a = action as Record<string, unknown>;
    return typeof a.add === "string" || typeof a.decline === "string";
  });
}
