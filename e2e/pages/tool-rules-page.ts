import { expect, type Locator, type Page } from "@playwright/test";

/** The rules section of `/admin/tools`: one collapsible editor per tool. */
export class ToolRulesPage {
  readonly section: Locator;

  constructor(readonly page: Page) {
    this.section = page.getByRole("region", { name: "Rules", exact: true });
  }

  /** `clientTool`: also open an editor for this MCP client's tool name. */
  async goto(clientTool?: string): Promise<void> {
    await this.page.goto(
      clientTool ? `/admin/tools?clientTool=${encodeURIComponent(clientTool)}` : "/admin/tools",
    );
    await expect(this.section).toBeVisible();
  }

  /** Opens a tool's rules editor (closed while the tool has no rules). */
  async open(toolName: string): Promise<Locator> {
    const tool = this.section.locator(`details[data-tool-rules="${toolName}"]`);
    if (!(await tool.evaluate((element) => (element as HTMLDetailsElement).open)))
      await tool.locator("summary").click();
    return tool;
  }

  async tryArgs(tool: Locator, toolName: string, args: string): Promise<Locator> {
    await tool.getByLabel(`Arguments of a call to ${toolName} (JSON)`).fill(args);
    await tool.getByRole("button", { name: "Try the rules" }).click();
    return tool.locator("[data-trial-result]");
  }
}

/** `/admin/groups`. */
export class AdminGroupsPage {
  constructor(readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto("/admin/groups");
    await expect(this.page.getByRole("heading", { name: "Approver groups" })).toBeVisible();
  }

  group(slug: string): Locator {
    return this.page.locator(`section[data-group="${slug}"]`);
  }

  async create(slug: string, name: string): Promise<void> {
    const form = this.page.getByRole("form", { name: "Create a group" });
    await form.getByLabel("Slug").fill(slug);
    await form.getByLabel("Display name").fill(name);
    await form.getByRole("button", { name: "Create group" }).click();
  }
}
