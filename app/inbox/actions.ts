"use server";

import { serveAction } from "@/app/_lib/serve-action";
import { answerMany } from "./_lib/answer-many";

/** A reviewer's approve/decline of several approvals at once; each reports its own outcome. */
export const answerManyAction = serveAction(answerMany);
