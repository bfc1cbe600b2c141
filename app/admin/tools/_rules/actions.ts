"use server";

import { serveAction } from "@/app/_lib/serve-action";
import { saveToolRules, tryToolRules } from "../../_lib/manage-tool-rules";

/** Saves one tool's whole list of rules; the next call of it, anywhere, is judged by them. */
export const saveToolRulesAction = serveAction(saveToolRules);

/** Shows which of the rules, as edited, would take a call with the pasted arguments. */
export const tryToolRulesAction = serveAction(tryToolRules);
