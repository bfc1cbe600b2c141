/** Reads a stream to its end, handing each part to `onPart` as it arrives. */
export async function drain(stream: AsyncIterable<unknown>, onPart?: (part: unknown) => void): Promise<void> {
  for await (const part of stream) onPart?.(part);
}
