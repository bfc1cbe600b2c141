"use server";

import { serveAction } from "@/app/_lib/serve-action";
import { readAnswerData } from "./_lib/read-answer-data";
import { readEscalationSteps } from "./_lib/read-escalation-steps";
import { readVoteTally } from "./_lib/read-vote-tally";
import { submitAnswer } from "./_lib/submit-answer";
import { takeRequest } from "./_lib/take-request";

/** Answers one parked request; the run resumes on the server once its turn is complete. */
export const answerRequestAction = serveAction(submitAnswer);

/** A reviewer's "I'm on it" for one request, or letting go of it. */
export const takeRequestAction = serveAction(takeRequest);

/** A group request's votes so far, read again while its card or page is on screen. */
export const readVoteTallyAction = serveAction(readVoteTally);

/** The escalation steps a request has taken, read again while its chat card is on screen. */
export const readEscalationStepsAction = serveAction(readEscalationSteps);

/** What a closed request was answered with, for its chat card to say in words. */
export const readAnswerDataAction = serveAction(readAnswerData);
