import { expect, type Page } from "@playwright/test";
import { RequestForm } from "./request-form";

/** `/requests/[id]`: one request, rendered by kind. */
export class RequestPage {
  readonly form: RequestForm;

  constructor(readonly page: Page) {
    this.form = new RequestForm(page.getByRole("main"));
  }

  async goto(id: string): Promise<void> {
    await this.page.goto(`/requests/${id}`);
  }

  /**
   * The page shows the request that asked `prompt`: its card's heading is the one-sentence summary
   * (the prompt itself when the tool gives none), and the prompt is quoted under it.
   */
  async expectPrompt(prompt: string): Promise<void> {
    const card = this.page.getByRole("main").getByRole("article");
    await expect(card.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(card.getByText(prompt, { exact: true })).toBeVisible();
  }

  /** The card's one-sentence heading. */
  heading() {
    return this.page.getByRole("main").getByRole("article").getByRole("heading", { level: 1 });
  }

  requestId(): string {
    const id = new URL(this.page.url()).pathname.split("/").at(-1);
    if (!id) throw new Error(`not on a request page: ${this.page.url()}`);
    return id;
  }
}
