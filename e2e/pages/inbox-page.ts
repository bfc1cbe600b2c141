import { expect, type Locator, type Page } from "@playwright/test";
import { RequestForm } from "./request-form";

/**
 * The inbox: URL-driven filters, the request list, the reviewer's bulk bar, the live indicator,
 * and the selected request beside the list (the split view).
 */
export class InboxPage {
  readonly list: Locator;
  readonly kind: Locator;
  readonly status: Locator;
  readonly sort: Locator;
  readonly search: Locator;
  readonly apply: Locator;
  readonly approveSelected: Locator;
  readonly declineSelected: Locator;
  readonly bulkReason: Locator;
  readonly results: Locator;
  readonly empty: Locator;
  /** "Live" while the inbox follows changes, "Reconnecting…" while it cannot. */
  readonly live: Locator;
  /** The split view's right-hand side. */
  readonly detail: Locator;
  /** The answer form of the selected request. */
  readonly detailForm: RequestForm;
  /** On a phone, the one button the filters fold behind; it names the filters in force. */
  readonly filtersToggle: Locator;

  constructor(readonly page: Page) {
    this.list = page.getByRole("list", { name: "Requests" });
    const filters = page.getByRole("form", { name: "Filter requests" });
    this.kind = filters.getByLabel("Kind");
    this.status = filters.getByLabel("Status");
    this.sort = filters.getByLabel("Sort");
    this.search = filters.getByLabel("Search prompts");
    this.apply = filters.getByRole("button", { name: "Apply" });
    this.approveSelected = page.getByRole("button", { name: "Approve selected" });
    this.declineSelected = page.getByRole("button", { name: "Decline selected" });
    this.bulkReason = page
      .getByRole("region", { name: "Answer selected approvals" })
      .getByLabel("Reason for declining (optional)");
    this.results = page.getByRole("list", { name: "Results" });
    this.empty = page.getByText("No requests match these filters.");
    this.live = page.getByRole("status").filter({ hasText: /^(Connecting…|Live|Reconnecting…)$/ });
    this.detail = page.getByRole("region", { name: "Selected request" });
    this.detailForm = new RequestForm(this.detail);
    this.filtersToggle = page.getByRole("button", { name: /^Filters/ });
  }

  /** Unfolds the phone's filters; does nothing where they show inline (no button). */
  async openFilters(): Promise<void> {
    if (!(await this.filtersToggle.isVisible())) return;
    if ((await this.filtersToggle.getAttribute("aria-expanded")) !== "true") await this.filtersToggle.click();
    await expect(this.kind).toBeVisible();
  }

  async goto(query = ""): Promise<void> {
    await this.page.goto(`/inbox${query}`);
    await expect(this.page.getByRole("heading", { name: "Inbox", level: 1 })).toBeVisible();
  }

  /** The pane's card for the request that asked `prompt` (its heading, or the prompt quoted under it). */
  detailShows(prompt: string): Locator {
    return this.detail.getByRole("article").getByText(prompt, { exact: true });
  }

  row(prompt: string | RegExp): Locator {
    return this.list.getByRole("listitem").filter({ hasText: prompt });
  }

  /** Shows the request beside the list, as a click on its row does. */
  async selectRow(prompt: string): Promise<void> {
    await this.list.getByRole("link", { name: prompt }).first().click();
    await expect(this.page).toHaveURL(/[?&]selected=[\w-]+/);
    await expect(this.detailShows(prompt)).toBeVisible();
  }

  /** Opens the request on its own page, by way of the split view. */
  async open(prompt: string): Promise<void> {
    await this.selectRow(prompt);
    await this.detail.getByRole("link", { name: "Open on its own page" }).click();
    await expect(this.page).toHaveURL(/\/requests\/[^/]+$/);
  }

  select(prompt: string): Locator {
    return this.page.getByRole("checkbox", { name: `Select: ${prompt}` });
  }
}
