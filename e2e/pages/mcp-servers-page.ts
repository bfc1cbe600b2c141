import { expect, type Locator, type Page } from "@playwright/test";

/** The MCP servers section of `/admin/tools`: the servers table and the add form. */
export class McpServersPage {
  readonly table: Locator;
  readonly form: Locator;
  readonly name: Locator;
  readonly url: Locator;
  readonly addHeader: Locator;
  readonly add: Locator;
  readonly formAlert: Locator;
  readonly formStatus: Locator;

  constructor(readonly page: Page) {
    const section = page.getByRole("region", { name: "MCP servers" });
    this.table = section.getByRole("table", { name: "MCP servers" });
    this.form = section.getByRole("form", { name: "Add a remote server" });
    this.name = this.form.getByLabel("Name", { exact: true });
    this.url = this.form.getByLabel(/^URL/);
    this.addHeader = this.form.getByRole("button", { name: "Add a header" });
    this.add = this.form.getByRole("button", { name: "Add server" });
    this.formAlert = this.form.getByRole("alert");
    this.formStatus = this.form.getByRole("status");
  }

  async goto(): Promise<void> {
    await this.page.goto("/admin/tools");
    await expect(this.table).toBeVisible();
  }

  row(name: string): Locator {
    return this.table.getByRole("row", { name: `Server ${name}`, exact: true });
  }

  async addServer(name: string, url: string, headers: Array<{ name: string; value: string }> = []) {
    await this.name.fill(name);
    await this.url.fill(url);
    for (const [index, header] of headers.entries()) {
      await this.addHeader.click();
      const group = this.form.getByRole("group", { name: `Header ${index + 1}` });
      await group.getByLabel("Header name").fill(header.name);
      await group.getByLabel("Header value").fill(header.value);
    }
    await this.add.click();
  }
}
