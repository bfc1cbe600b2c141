"use server";

import { serveAction } from "@/app/_lib/serve-action";
import { submitAnswer } from "./_lib/submit-answer";

/** Answers one parked request; the run resumes on the server once its turn is complete. */
export const answerRequestAction = serveAction(submitAnswer);
