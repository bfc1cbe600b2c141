import { describe, expect, it } from "vitest";
import { pendingOf } from "./pending";
import { createToolkit } from "./toolkit";

describe("the built-in question tool", () => {
  it("requires questions in its schema", async () => {
    const tk = await createToolkit();
    const spec = tk.specs().find((s) => s.name === "question")!;
    expect(spec.inputSchema).toMatchObject({ type: "object", required: ["questions"] });
  });

  it("suspends with kind question, the questions as data and one prompt line per question", async () => {
    const tk = await createToolkit();
    const questions = [
      { question: "Which colour?", header: "Colour", options: ["red", "blue"] },
      { question: "Any notes?" },
      { question: "Which sizes?", options: ["S", "M"], multiple: true },
    ];
    const res = await tk.execute("question", { questions });
    const req = pendingOf(res)!;
    expect(req.kind).toBe("question");
    expect(req.data).toEqual({ questions });
    expect(req.prompt).toBe("Which colour? (options: red, blue)\nAny notes?\nWhich sizes? (options: S, M)");
    expect(res.output).toBe(req.prompt);
    expect(res.isError).toBe(true);
  });

  it("returns the answer data as JSON on the retry, not an error", async () => {
    const tk = await createToolkit();
    const args = { questions: [{ question: "Which colour?" }] };
    const answer = { id: "q1", ok: true, data: { "Which colour?": "red" } };
    expect(await tk.execute("question", args, { answer })).toEqual({
      output: '{"Which colour?":"red"}',
      isError: false,
    });
    expect(await tk.execute("question", args, { answer: { id: "q1", ok: true } })).toEqual({
      output: "{}",
      isError: false,
    });
  });

  it("reports bad input as an ordinary error instead of suspending", async () => {
    const tk = await createToolkit();
    const res = await tk.execute("question", { questions: [] });
    expect(res.isError).toBe(true);
    expect(pendingOf(res)).toBeUndefined();
    expect(res.output).toContain("questions");
    const wrongOptions = await tk.execute("question", { questions: [{ question: "q", options: [1] }] });
    expect(pendingOf(wrongOptions)).toBeUndefined();
  });
});
