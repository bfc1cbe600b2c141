import type { Locator, Page } from "@playwright/test";

/**
 * Marks the page's current document; the returned locator finds the mark only while that
 * document stays, since a reload starts a new one without it.
 */
export async function markThisDocument(page: Page): Promise<Locator> {
  await page.evaluate(() => document.documentElement.setAttribute("data-e2e-loaded-once", ""));
  return page.locator("html[data-e2e-loaded-once]");
}
