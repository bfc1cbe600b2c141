import { describe, expect, it } from "vitest";
import { buildQuestionAnswer, readQuestions } from "./question-answer";

describe("readQuestions", () => {
  it("keeps well-formed questions and drops malformed ones", () => {
    const questions = readQuestions({
      questions: [
        { question: "Which city?", options: ["Paris", "Rome"] },
        { question: 42 },
        { question: "Seat?", options: ["aisle", 3] },
        { question: "Anything else?", header: "Notes" },
      ],
    });
    expect(questions.map((q) => q.question)).toEqual(["Which city?", "Anything else?"]);
  });

  it("returns nothing when data has no question list", () => {
    expect(readQuestions(undefined)).toEqual([]);
    expect(readQuestions({ questions: "Which city?" })).toEqual([]);
  });
});

describe("buildQuestionAnswer", () => {
  const questions = [
    { question: "Which city?", options: ["Paris", "Rome"] },
    { question: "Extras?", options: ["bag", "meal"], multiple: true },
    { question: "Name on ticket?" },
  ];

  it("keys answers by question text, keeping lists for multiple choice", () => {
    const built = buildQuestionAnswer(questions, { 0: "Rome", 1: ["meal", "bag"], 2: "  Ada  " });
    expect(built).toEqual({
      ok: true,
      data: { "Which city?": "Rome", "Extras?": ["meal", "bag"], "Name on ticket?": "Ada" },
    });
  });

  it("reports blank answers and options that were not offered", () => {
    const built = buildQuestionAnswer(questions, { 0: "Berlin", 1: [], 2: " " });
    expect(built).toEqual({ ok: false, missing: [0, 1, 2] });
  });
});
