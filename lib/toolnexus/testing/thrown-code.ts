/**
 * The `code` of whatever `run` throws or rejects with, or "no error" when it completes. Tests
 * compare codes rather than messages, since the codes are the typed contract and messages may
 * be reworded.
 */
export async function thrownCode(run: () => unknown): Promise<string> {
  try {
    await run();
    return "no error";
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    return typeof code === "string" ? code : `no code: ${String(error)}`;
  }
}
