import { expect, type Locator, type Page } from "@playwright/test";

/** The built-in tools section of `/admin/tools`: one switch per tool. */
export class BuiltinToolsPage {
  readonly section: Locator;
  readonly table: Locator;

  constructor(readonly page: Page) {
    this.section = page.getByRole("region", { name: "Built-in tools" });
    this.table = this.section.getByRole("table", { name: "Built-in tools" });
  }

  async goto(): Promise<void> {
    await this.page.goto("/admin/tools");
    await expect(this.table).toBeVisible();
  }

  row(toolName: string): Locator {
    return this.table.locator(`tr[data-builtin="${toolName}"]`);
  }

  async switchOn(toolName: string): Promise<void> {
    const row = this.row(toolName);
    await row.getByRole("button", { name: `Switch on ${toolName}` }).click();
    await expect(row.getByRole("status")).toContainText("Switched on");
  }
}
