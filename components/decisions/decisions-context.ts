"use client";

import { createContext, useContext } from "react";
import type { AnswerDraft } from "@/components/request-form/request-view";
import type { Outcome } from "@/lib/domain/outcome";
import type { ActionResult } from "@/lib/errors";

/** One decision (or one bulk decision) waiting out its Undo window on this page. */
export interface HeldEntry {
  key: string;
  requestIds: string[];
  heldIds: string[];
  outcome: Extract<Outcome, "approved" | "declined">;
  /** What the toast says: "Approved", "2 approved". */
  text: string;
  commitAt: number;
  state: "held" | "undone" | "committed" | "late";
  /** Its toast was closed before it committed (the decision still commits). */
  dismissed?: boolean;
}

export type HoldAnswer = AnswerDraft;

export interface Decisions {
  /** Holds one decision and shows its toast; the result is the hold's, as a form reports it. */
  holdOne(requestId: string, answer: HoldAnswer): Promise<ActionResult<unknown>>;
  /** Shows the toast of decisions already held together (a bulk decision). */
  showHeld(entry: Omit<HeldEntry, "key" | "state">): void;
  /** This page's decision on this request, until it is undone (held, committing or committed). */
  heldFor(requestId: string): HeldEntry | undefined;
  undo(key: string): Promise<void>;
}

export const DecisionsContext = createContext<Decisions | null>(null);

/** The page's held decisions; null outside the provider (then answers commit at once). */
export function useDecisions(): Decisions | null {
  return useContext(DecisionsContext);
}
