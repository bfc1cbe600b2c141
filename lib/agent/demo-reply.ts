import type { Message } from "toolnexus";
import { isNotDone, REQUEST_WAS } from "./format-decline";

type ToolMessage = Extract<Message, { role: "tool" }>;

/** The tool messages answering the most recent assistant turn, in tool-call order. */
export function latestToolResults(messages: Message[]): ToolMessage[] {
  const results: ToolMessage[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== "tool") break;
    results.unshift(message);
  }
  return results;
}

const ACTIONS: Record<string, string> = {
  deploy: "deploy",
  refund: "refund",
  book_flight: "booking",
  get_balance: "balance check",
};

function describeAnswers(output: string): string {
  try {
    const answers = JSON.parse(output) as Record<string, unknown>;
    const entries = Object.entries(answers).map(
      ([question, value]) => `${question} → ${Array.isArray(value) ? value.join(", ") : String(value)}`,
    );
    return entries.length > 0 ? `Thanks! You answered: ${entries.join("; ")}.` : "Thanks, noted.";
  } catch {
    return `Thanks! You answered: ${output}`;
  }
}

/**
 * Words the demo model says once its tools have reported back. A decline repeats the sentence
 * the loop fed back (without the request, which the chat shows above), so a reviewer's reason
 * reaches the chat unchanged.
 */
export function composeReply(results: ToolMessage[]): string {
  const sentences = results.map((result) => {
    const action = ACTIONS[result.name] ?? result.name;
    if (!result.isError) {
      return result.name === "question" ? describeAnswers(result.content) : result.content;
    }
    if (isNotDone(result.content)) {
      return `The ${action} did not go ahead. ${result.content.split(REQUEST_WAS)[0]}`;
    }
    return `The ${action} failed: ${result.content}`;
  });
  return sentences.length > 0 ? sentences.join("\n\n") : "Done.";
}
