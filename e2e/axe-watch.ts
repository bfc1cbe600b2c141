import AxeBuilder from "@axe-core/playwright";
import type { BrowserContext, Page } from "@playwright/test";

type AxeResults = Awaited<ReturnType<AxeBuilder["analyze"]>>;

/** Each page's latest axe run: axe refuses a second run in a page while one is going. */
const runs = new WeakMap<Page, Promise<unknown>>();

/**
 * Next streams a dynamic page's metadata after its first bytes, so right after a navigation
 * the document may not have its <title> yet. Wait a little for it: a page that never gets one
 * is still reported by axe's `document-title` rule.
 */
async function titleStreamed(page: Page): Promise<void> {
  await page.waitForFunction(() => document.title !== "", null, { timeout: 3_000 }).catch(() => {});
}

/**
 * Runs axe on the page once every earlier run in it has finished, whoever started it: the
 * watch's check on arrival and a test's own check of the same page would otherwise collide.
 */
export function analyzeInTurn(page: Page): Promise<AxeResults> {
  const next = (runs.get(page) ?? Promise.resolve())
    .catch(() => {})
    .then(() => titleStreamed(page))
    .then(() => analyzeSettled(page));
  runs.set(page, next);
  return next;
}

/**
 * A page that re-renders itself (a live view's refresh after a run moved on) briefly drops its
 * <title> while the new metadata streams in; axe reading it at that instant reports a title the
 * page does have. Such a finding is checked once more after the title is back; a page without
 * one still fails.
 */
async function analyzeSettled(page: Page): Promise<AxeResults> {
  const results = await new AxeBuilder({ page }).analyze();
  if (!results.violations.some((violation) => violation.id === "document-title")) return results;
  await titleStreamed(page);
  return new AxeBuilder({ page }).analyze();
}

/** One serious or critical accessibility violation, where it was seen. */
export interface AxeFinding {
  path: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

const FAILING = new Set(["serious", "critical"]);

/**
 * Kinds of pages already checked on arrival by this worker, at a viewport width: a check costs
 * a second or two, and the next journey through the same page adds little. Each journey's end
 * state is still checked by every test (see `checkOpenPages`).
 */
const checkedOnArrival = new Set<string>();

/** Record ids (cuids, long hex) stand for any id: one check per kind of page is enough. */
function pageKind(url: URL): string {
  return url.pathname.replace(/\/[A-Za-z0-9_-]{20,}(?=\/|$)/g, "/:id");
}

/**
 * Runs axe on every page of the app a test's pages show: each kind of page as it is first
 * reached (a full load or a client-side navigation), and each page still open at the end of a
 * test, in the state the journey left it (its cards, forms and answers). Pages of other origins (the demo OAuth provider)
 * are not the app's and are left out.
 */
export class AxeWatch {
  readonly findings: AxeFinding[] = [];
  private readonly pages = new Set<Page>();
  private readonly finalChecked = new Set<Page>();
  private readonly ignored = new Set<string>();
  /** axe refuses a second run in a page while one is going: one queue per page. */
  private readonly queues = new Map<Page, Promise<void>>();

  constructor(private readonly origin: string) {}

  /** Leaves out a path a test serves itself (a hostile page, say): it is not the app's. */
  ignorePath(path: string): void {
    this.ignored.add(path);
  }

  watchContext(context: BrowserContext): void {
    for (const page of context.pages()) this.watchPage(page);
    context.on("page", (page) => this.watchPage(page));
  }

  watchPage(page: Page): void {
    if (this.pages.has(page)) return;
    this.pages.add(page);
    page.on("framenavigated", (frame) => {
      if (frame !== page.mainFrame()) return;
      const url = this.ownUrl(page);
      const key = url && `${page.viewportSize()?.width ?? 0} ${pageKind(url)}`;
      if (!key || checkedOnArrival.has(key)) return;
      checkedOnArrival.add(key);
      // Mid-journey the page may move on while axe reads it; that check is then skipped, and
      // the final one below, which may not fail that way, still covers what the page shows.
      void this.enqueue(page, () => this.check(page).catch(() => {}));
    });
  }

  /** Checks every watched page that is still open; call before their contexts close. */
  async checkOpenPages(): Promise<void> {
    for (const page of this.pages) {
      if (this.finalChecked.has(page) || page.isClosed() || !this.ownUrl(page)) continue;
      this.finalChecked.add(page);
      await this.enqueue(page, async () => {
        // A journey may end on a click that is still navigating: read the page it lands on.
        await this.check(page).catch(async (error: unknown) => {
          if (!String(error).includes("Execution context was destroyed")) throw error;
          await this.check(page);
        });
      });
    }
  }

  describe(): string {
    return this.findings
      .map((f) => `${f.rule} (${f.impact}) on ${f.path}: ${f.help} — ${f.targets.join(", ")}`)
      .join("\n");
  }

  private ownUrl(page: Page): URL | null {
    const url = new URL(page.url());
    return url.origin === this.origin && !this.ignored.has(url.pathname) ? url : null;
  }

  private enqueue(page: Page, task: () => Promise<void>): Promise<void> {
    const next = (this.queues.get(page) ?? Promise.resolve()).then(task);
    this.queues.set(
      page,
      next.catch(() => {}),
    );
    return next;
  }

  private async check(page: Page): Promise<void> {
    if (page.isClosed()) return;
    await page.waitForLoadState("load");
    const url = this.ownUrl(page);
    if (!url) return;
    const results = await analyzeInTurn(page);
    for (const violation of results.violations) {
      if (!FAILING.has(violation.impact ?? "")) continue;
      const finding: AxeFinding = {
        path: url.pathname,
        rule: violation.id,
        impact: violation.impact ?? "",
        help: violation.help,
        targets: violation.nodes.map((node) => node.target.join(" ")),
      };
      const key = JSON.stringify(finding);
      if (!this.findings.some((known) => JSON.stringify(known) === key)) this.findings.push(finding);
    }
  }
}
