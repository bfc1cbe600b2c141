import { expect } from "vitest";
import type { TestProvider } from "./test-database";

/**
 * No full scan, nor a walk of a whole index (on PostgreSQL, an index scan with no `Index Cond`);
 * `sorted` also allows no sort of what was read (the index gives the order), and lines matching
 * `except` are passed over. SQLite's `SCAN CONSTANT ROW` (a SELECT of scalar subqueries, which
 * reads no table) is no scan.
 */
export function expectNoScan(
  provider: TestProvider,
  plan: string[],
  { sorted = true, except }: { sorted?: boolean; except?: RegExp } = {},
) {
  const text = plan.join("\n");
  plan.forEach((line, at) => {
    if (except?.test(line)) return;
    if (provider === "sqlite") {
      expect(line, text).not.toMatch(/^SCAN (?!CONSTANT ROW$)/);
      if (sorted) expect(line, text).not.toMatch(/TEMP B-TREE/);
      return;
    }
    expect(line, text).not.toMatch(/Seq Scan/);
    if (!/Index (Only )?Scan (Backward )?using/.test(line)) return;
    const next = plan.slice(at + 1).findIndex((later) => /^\s*-> {2}/.test(later));
    const details = plan.slice(at + 1, next === -1 ? undefined : at + 1 + next);
    expect(
      details.some((detail) => detail.includes("Index Cond:")),
      `${line} walks its whole index:\n${text}`,
    ).toBe(true);
  });
}
