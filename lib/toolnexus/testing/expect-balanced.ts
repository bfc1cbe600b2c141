import { expect } from "vitest";
import type { ModelInput } from "../types";
import { unbalancedReason } from "./balanced-transcript";

/** Every transcript the model was sent would pass a provider's tool-call pairing check. */
export function expectBalanced(inputs: ModelInput[]): void {
  for (const input of inputs) expect(unbalancedReason(input.messages)).toBeUndefined();
}
