/** "2026-11-30 01:50 UTC": short, and the same on the server and in every browser. */
export function formatUtc(iso: string): string {
  return `${iso.slice(0, 16).replace("T", " ")} UTC`;
}
