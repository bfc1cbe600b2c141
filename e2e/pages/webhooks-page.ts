import { expect, type Locator, type Page } from "@playwright/test";

/** `/admin/webhooks`: endpoints, the form that adds one, and the latest deliveries. */
export class WebhooksPage {
  readonly endpoints: Locator;
  readonly deliveries: Locator;

  constructor(readonly page: Page) {
    this.endpoints = page.getByRole("table", { name: "Webhook endpoints" });
    this.deliveries = page.getByRole("table", { name: "Webhook deliveries" });
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
