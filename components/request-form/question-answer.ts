/** One entry of the built-in question tool's input (`data.questions`). */
export interface QuestionSpec {
  question: string;
  header?: string;
  options?: string[];
  multiple?: boolean;
}

function isQuestionSpec(value: unknown): value is QuestionSpec {
  if (typeof value !== "object" || value === null) return false;
  const q = value as Record<string, unknown>;
  if (typeof q.question !== "string" || q.question.length === 0) return false;
  if (q.header !== undefined && typeof q.header !== "string") return false;
  if (q.multiple !== undefined && typeof q.multiple !== "boolean") return false;
  if (q.options !== undefined) {
    if (!Array.isArray(q.options) || !q.options.every((o) => typeof o === "string")) return false;
  }
  return true;
}

/**
 * Reads `data.questions`, keeping only well-formed entries: the data came from a model's tool
 * call, so a malformed entry must not break the page.
 */
export function readQuestions(data: Record<string, unknown> | undefined): QuestionSpec[] {
  const list = data?.questions;
  if (!Array.isArray(list)) return [];
  return list.filter(isQuestionSpec);
}

export type QuestionValue = string | string[];

/**
 * The answer data handed back to the model, keyed by the question text so the model can read
 * it without knowing field positions. Returns the list of unanswered questions instead when
 * any is blank.
 */
export function buildQuestionAnswer(
  questions: QuestionSpec[],
  values: Record<number, QuestionValue | undefined>,
): { ok: true; data: Record<string, QuestionValue> } | { ok: false; missing: number[] } {
  const data: Record<string, QuestionValue> = {};
  const missing: number[] = [];
  questions.forEach((q, index) => {
    const raw = values[index];
    const value = Array.isArray(raw) ? raw : (raw ?? "").trim();
    if (value.length === 0) {
      missing.push(index);
      return;
    }
    if (q.options && q.options.length > 0) {
      const allowed = new Set(q.options);
      const picked = Array.isArray(value) ? value : [value];
      if (!picked.every((p) => allowed.has(p))) {
        missing.push(index);
        return;
      }
    }
    data[q.question] = value;
  });
  return missing.length > 0 ? { ok: false, missing } : { ok: true, data };
}
