import type { ModelInput } from "../types";
import { createScriptedDriver } from "./scripted-driver";

/** Calls the given tools in one turn, then answers with a summary of the tool messages it saw. */
export function oneToolTurn(...names: string[]) {
  return createScriptedDriver((input: ModelInput) => {
    const last = input.messages.at(-1);
    if (last?.role === "user") return { toolCalls: names.map((name, i) => ({ id: `c${i + 1}`, name })) };
    const tools = input.messages
      .filter((m) => m.role === "tool")
      .map((m) => (m.role === "tool" ? m.content : ""));
    return { text: `summary: ${tools.join(" | ")}` };
  });
}
