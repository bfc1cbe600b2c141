/** Every item of an async iterable, in order (`Array.fromAsync` needs Node 22). */
export async function collectAll<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
