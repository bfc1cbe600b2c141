import { isToolnexusError, type ToolnexusError } from "../errors";

/** The ToolnexusError a call failed with; anything else, or no failure, fails the test. */
export async function failure(promise: Promise<unknown>): Promise<ToolnexusError> {
  try {
    await promise;
  } catch (error) {
    if (isToolnexusError(error)) return error;
    throw new Error(`expected a ToolnexusError, got ${String(error)}`);
  }
  throw new Error("expected the call to fail");
}
