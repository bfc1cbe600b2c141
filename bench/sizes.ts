/** Sizes for a sweep from a comma-separated environment variable, or the defaults. */
export function sizesFromEnv(name: string, defaults: number[]): number[] {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return defaults;
  const parts = raw.split(",").map((part) => part.trim());
  if (parts.some((part) => !/^\d+$/.test(part)))
    throw new Error(`${name} must be comma-separated whole numbers, got "${raw}"`);
  return parts.map(Number);
}
