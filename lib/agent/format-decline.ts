/**
 * How a request that did not go ahead reads to the model: plain sentences it can say back to
 * the person as they are ("It was declined, with the reason “change freeze”."), the reviewer's
 * own words quoted, and only then what was asked, for the model's context.
 */
const HOW: Record<string, string> = {
  declined: "It was declined",
  expired: "It expired before anyone answered",
  cancelled: "It was cancelled",
};

/** Where the sentence to repeat ends and the model's context begins. */
export const REQUEST_WAS = " The request was: ";

export function formatDecline(
  request: { prompt: string },
  answer: { reason?: string; data?: Record<string, unknown> } | undefined,
): string {
  const how = HOW[answer?.reason ?? "declined"] ?? HOW.declined;
  const why = typeof answer?.data?.reason === "string" ? answer.data.reason.trim() : "";
  const sentence = why ? `${how}, with the reason “${why}”.` : `${how}.`;
  return `${sentence}${REQUEST_WAS}${request.prompt}`;
}

/** Whether a tool's output is one of the sentences above (or the library's default text for one). */
export function isNotDone(output: string): boolean {
  return (
    Object.values(HOW).some((how) => output.startsWith(how)) ||
    /^(declined|expired|cancelled|unresolved)\b/i.test(output) ||
    /\bdeclined\b/i.test(output)
  );
}
