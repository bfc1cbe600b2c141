import { expect, type Locator, type Page } from "@playwright/test";
import type { Role } from "@/lib/domain/roles";

/** `/admin/users` and `/admin/runs`: the accounts with their roles, and the runs still going. */
export class AdminPage {
  readonly heading: Locator;
  readonly tabs: Locator;
  readonly search: Locator;
  readonly searchButton: Locator;
  readonly users: Locator;
  readonly runs: Locator;
  /** What the runs page says about the last cancel, after its row has left the list. */
  readonly runOutcome: Locator;
  readonly runAlert: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { name: "Admin", level: 1 });
    this.tabs = page.getByRole("navigation", { name: "Admin" });
    const searchForm = page.getByRole("form", { name: "Search users" });
    this.search = searchForm.getByLabel("Search name or email");
    this.searchButton = searchForm.getByRole("button", { name: "Search" });
    this.users = page.getByRole("table", { name: "Users" });
    this.runs = page.getByRole("table", { name: "Active runs" });
    const main = page.getByRole("main");
    this.runOutcome = main.getByRole("status");
    this.runAlert = main.getByRole("alert");
  }

  async gotoRuns(): Promise<void> {
    await this.page.goto("/admin/runs");
    await expect(this.heading).toBeVisible();
  }

  /** The body rows of the users table. */
  userRows(): Locator {
    return this.users.getByRole("row").filter({ has: this.page.getByRole("rowheader") });
  }

  userRow(email: string): Locator {
    return this.userRows().filter({ hasText: email });
  }

  async searchFor(text: string): Promise<void> {
    await this.search.fill(text);
    await this.searchButton.click();
    // The search lives in the URL, so the view can be reloaded and shared.
    await expect(this.page).toHaveURL(
      (url) => url.pathname === "/admin/users" && url.searchParams.get("q") === text,
    );
  }

  roleSelect(email: string): Locator {
    return this.userRow(email).getByRole("combobox", { name: /^New role for / });
  }

  /** Picks a role in the user's row and saves it; resolves once the page confirms it. */
  async changeRole(email: string, role: Role): Promise<void> {
    const row = this.userRow(email);
    await this.roleSelect(email).selectOption(role);
    await row.getByRole("button", { name: "Save", exact: true }).click();
    // The row has a note per cell (role, sign-out); the role's is the one beside its picker.
    const roleCell = row
      .getByRole("cell")
      .filter({ has: this.page.getByRole("combobox", { name: /^New role for / }) });
    await expect(roleCell.getByRole("status")).toHaveText(`Saved: now ${role}.`);
    await expect(row.getByTestId("role-badge")).toHaveText(role);
  }

  runRow(title: string): Locator {
    return this.runs.getByRole("row").filter({ has: this.page.getByRole("rowheader", { name: title }) });
  }

  /** "Cancel run" in the run's row, then the explicit yes. */
  async cancelRun(title: string): Promise<void> {
    const row = this.runRow(title);
    await row.getByRole("button", { name: "Cancel run", exact: true }).click();
    await row.getByRole("button", { name: "Yes, cancel the run", exact: true }).click();
  }
}
