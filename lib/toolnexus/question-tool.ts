import { defineTool } from "./define-tool";
import { pending } from "./pending";
import type { Tool } from "./types";

export interface Question {
  question: string;
  header?: string;
  options?: string[];
  multiple?: boolean;
}

const QUESTION_SCHEMA = {
  type: "object",
  properties: {
    questions: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        properties: {
          question: { type: "string", description: "The question, in full." },
          header: { type: "string", description: "A short label for the question." },
          options: { type: "array", items: { type: "string" }, description: "Choices to offer." },
          multiple: { type: "boolean", description: "Whether several options may be picked." },
        },
        required: ["question"],
      },
    },
  },
  required: ["questions"],
};

function parseQuestions(value: unknown): Question[] | string {
  if (!Array.isArray(value) || value.length === 0) return "questions must be a non-empty array";
  const questions: Question[] = [];
  for (const [index, item] of value.entries()) {
    if (typeof item !== "object" || item === null || typeof item.question !== "string") {
      return `questions[${index}].question must be a string`;
    }
    const { options } = item as { options?: unknown };
    if (options !== undefined && !(Array.isArray(options) && options.every((o) => typeof o === "string"))) {
      return `questions[${index}].options must be an array of strings`;
    }
    questions.push(item as Question);
  }
  return questions;
}

/** One line per question; the options ride along so a plain-text host can still show them. */
export function formatQuestions(questions: Question[]): string {
  return questions
    .map((q) =>
      q.options && q.options.length > 0 ? `${q.question} (options: ${q.options.join(", ")})` : q.question,
    )
    .join("\n");
}

/** The built-in `question` tool: the model asks the user, the run parks until they answer. */
export function createQuestionTool(): Tool {
  return defineTool({
    name: "question",
    description:
      "Ask the user one or more questions and wait for the answers. Use it when you need a decision or " +
      "a fact only the user has. Never use it to collect passwords, keys or other secrets.",
    inputSchema: QUESTION_SCHEMA,
    source: "builtin",
    run: (args, ctx) => {
      if (ctx?.answer) return JSON.stringify(ctx.answer.data ?? {});
      const questions = parseQuestions(args.questions);
      if (typeof questions === "string") return { output: `Invalid arguments: ${questions}`, isError: true };
      return pending({ kind: "question", prompt: formatQuestions(questions), data: { questions } });
    },
  });
}
