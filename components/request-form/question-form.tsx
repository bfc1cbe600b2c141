"use client";

import { useId, useState } from "react";
import { buildQuestionAnswer, type QuestionSpec, type QuestionValue } from "./question-answer";
import type { SubmitAnswer } from "./request-view";
import { SubmitStatus } from "./submit-status";
import { useAnswerSubmit } from "./use-answer-submit";

interface QuestionFormProps {
  questions: QuestionSpec[];
  submit: SubmitAnswer;
  onSent?: () => void;
}

/** One field per question: radios for options, checkboxes when several may be picked, else text. */
export function QuestionForm({ questions, submit, onSent }: QuestionFormProps) {
  const { state, send, busy } = useAnswerSubmit(submit, onSent);
  const [values, setValues] = useState<Record<number, QuestionValue>>({});
  const [missing, setMissing] = useState<number[]>([]);
  const baseId = useId();

  const setValue = (index: number, value: QuestionValue) =>
    setValues((prev) => ({ ...prev, [index]: value }));

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const built = buildQuestionAnswer(questions, values);
    if (!built.ok) {
      setMissing(built.missing);
      return;
    }
    setMissing([]);
    void send({ ok: true, data: built.data });
  };

  return (
    <form className="tn-question-form" onSubmit={onSubmit} noValidate>
      {questions.map((q, index) => {
        const fieldId = `${baseId}-q${index}`;
        const errorId = `${fieldId}-error`;
        const invalid = missing.includes(index);
        const current = values[index];
        return (
          <fieldset key={fieldId} className="tn-question" aria-describedby={invalid ? errorId : undefined}>
            <legend>{q.header ? `${q.header}: ${q.question}` : q.question}</legend>
            {q.options && q.options.length > 0 ? (
              q.options.map((option) => {
                const checked = Array.isArray(current) ? current.includes(option) : current === option;
                return (
                  <label key={option} className="tn-choice">
                    <input
                      type={q.multiple ? "checkbox" : "radio"}
                      name={fieldId}
                      value={option}
                      checked={checked}
                      disabled={busy}
                      onChange={(event) => {
                        if (!q.multiple) return setValue(index, option);
                        const list = Array.isArray(current) ? current : [];
                        setValue(
                          index,
                          event.target.checked ? [...list, option] : list.filter((o) => o !== option),
                        );
                      }}
                    />
                    {option}
                  </label>
                );
              })
            ) : (
              <input
                type="text"
                aria-label={q.question}
                value={typeof current === "string" ? current : ""}
                disabled={busy}
                onChange={(event) => setValue(index, event.target.value)}
              />
            )}
            {invalid && (
              <p id={errorId} className="field-error">
                Please answer this question.
              </p>
            )}
          </fieldset>
        );
      })}
      <button type="submit" className="button" disabled={busy}>
        Send answer
      </button>
      <SubmitStatus state={state} />
    </form>
  );
}
