/**
 * How a declined request reads to the model: the reviewer's own words come along, so its reply
 * can say why the action did not go ahead.
 */
export function formatDecline(
  request: { prompt: string },
  answer: { reason?: string; data?: Record<string, unknown> } | undefined,
): string {
  const why = typeof answer?.data?.reason === "string" ? ` Reason: ${answer.data.reason}` : "";
  return `${answer?.reason ?? "declined"}: ${request.prompt}${why}`;
}
