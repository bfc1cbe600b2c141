import { expect, type Locator, type Page } from "@playwright/test";

/** `/admin/webhooks`: endpoints, the form that adds one, and the deliveries, page by page. */
export class WebhooksPage {
  readonly endpoints: Locator;
  readonly deliveries: Locator;
  /** The links that show the deliveries of one status ("All", "Pending", "Delivered", "Failed"). */
  readonly statusFilters: Locator;

  constructor(readonly page: Page) {
    this.endpoints = page.getByRole("table", { name: "Webhook endpoints" });
    this.deliveries = page.getByRole("table", { name: "Webhook deliveries" });
    this.statusFilters = page.getByRole("navigation", { name: "Delivery status" });
  }

  async showStatus(label: "All" | "Pending" | "Delivered" | "Failed"): Promise<void> {
    await this.statusFilters.getByRole("link", { name: label, exact: true }).click();
    await expect(this.statusFilters.getByRole("link", { name: label, exact: true })).toHaveAttribute(
      "aria-current",
      "page",
    );
  }

  async goto(): Promise<void> {
    await this.page.goto("/admin/webhooks");
    await expect(this.endpoints).toBeVisible();
  }

  endpoint(url: string) {
    return this.endpoints.getByRole("row", { name: `Endpoint ${url}` });
  }

  delivery(messageId: string) {
    return this.deliveries.getByRole("row", { name: `Delivery ${messageId}` });
  }

  /** Adds an endpoint for every event and returns the signing secret the page shows once. */
  async addEndpoint(url: string): Promise<string> {
    await this.page.getByLabel("URL", { exact: true }).fill(url);
    await this.page.getByRole("button", { name: "Add endpoint" }).click();
    const status = this.page.getByRole("status").filter({ hasText: "Signing secret" });
    await expect(status).toContainText(`Added ${url}.`);
    return status.getByLabel("Signing secret").inputValue();
  }
}
