import { expect, type Locator, type Page } from "@playwright/test";

/** The approval policies section of `/admin/tools`. */
export class ToolPoliciesPage {
  readonly section: Locator;
  readonly table: Locator;

  constructor(readonly page: Page) {
    this.section = page.getByRole("region", { name: "Approval policies" });
    this.table = this.section.getByRole("table", { name: "Tool policies" });
  }

  async goto(): Promise<void> {
    await this.page.goto("/admin/tools");
    await expect(this.table).toBeVisible();
  }

  /** Opens the page once `toolName` is listed: an MCP server's tools appear once it has connected. */
  async gotoWithTool(toolName: string): Promise<void> {
    await expect(async () => {
      await this.goto();
      await expect(this.row(toolName)).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 90_000, intervals: [1_000, 2_000, 5_000] });
  }

  row(toolName: string): Locator {
    return this.table.locator(`tr[data-tool="${toolName}"]`);
  }

  /** Picks a policy by its label ("A reviewer approves", or "Default: …") and saves it. */
  async setPolicy(toolName: string, label: string | RegExp): Promise<void> {
    const row = this.row(toolName);
    const select = row.getByLabel(`Policy for ${toolName}`);
    const options = await select.locator("option").allTextContents();
    const option = options.find((text) => (typeof label === "string" ? text === label : label.test(text)));
    if (!option) throw new Error(`no policy option ${label} for ${toolName}: ${options.join(", ")}`);
    await select.selectOption({ label: option });
    await row.getByRole("button", { name: "Save" }).click();
    await expect(row.getByRole("status")).toContainText("Saved");
  }
}
