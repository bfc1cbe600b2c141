/**
 * The one value that tells one request of a tool from the next in a list: the amount of a
 * refund, the version of a deploy. The prompt says the rest; rows of the same tool otherwise
 * look alike. Only plain, short values qualify: anything else reads as nothing.
 */
const MONEY_KEYS = ["amount", "total", "price"] as const;
const VERSION_KEYS = ["version", "tag", "release"] as const;
const MAX_CHARS = 24;

export function requestHeadline(args: unknown): string | undefined {
  if (!args || typeof args !== "object" || Array.isArray(args)) return undefined;
  const record = args as Record<string, unknown>;
  for (const key of MONEY_KEYS) {
    const value = record[key];
    if (typeof value === "number" && Number.isFinite(value)) return money(value, record.currency);
  }
  for (const key of VERSION_KEYS) {
    const value = record[key];
    if (typeof value === "string" && value.trim() && value.length <= MAX_CHARS) return value.trim();
  }
  return undefined;
}

// Dollars unless the arguments name another ISO currency; the demo's refunds are in USD.
function money(amount: number, currency: unknown): string {
  const code =
    typeof currency === "string" && /^[A-Za-z]{3}$/.test(currency) ? currency.toUpperCase() : "USD";
  return new Intl.NumberFormat("en-US", { style: "currency", currency: code }).format(amount);
}
