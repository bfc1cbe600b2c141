import { expect, type Page } from "@playwright/test";
import { analyzeInTurn } from "./axe-watch";

/**
 * Fails on any serious or critical axe violation of the page as it is now; with `anyImpact`,
 * on any violation at all (pages that keep a stricter bar).
 */
export async function expectAccessible(page: Page, { anyImpact = false } = {}): Promise<void> {
  const results = await analyzeInTurn(page);
  const blocking = results.violations
    .filter((violation) => anyImpact || violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((n) => n.target).join(", ")})`,
    );
  expect(blocking, `axe on ${page.url()}`).toEqual([]);
}
