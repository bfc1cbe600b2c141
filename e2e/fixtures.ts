import { randomBytes } from "node:crypto";
import { type Browser, type BrowserContext, test as base, expect, type Page } from "@playwright/test";
import { hashPassword } from "@/lib/auth/verify-credentials";
import type { Db } from "@/lib/db/sql/client";
import { upsertUserByEmail } from "@/lib/db/users";
import type { Role } from "@/lib/domain/roles";
import { AxeWatch } from "./axe-watch";
import { AppShell } from "./pages/app-shell";
import { LoginPage } from "./pages/login-page";
import { addSessionCookie } from "./session-cookie";

export interface TestUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  password: string;
}

export interface SignedIn {
  user: TestUser;
  context: BrowserContext;
  page: Page;
  shell: AppShell;
}

type WorkerFixtures = {
  db: Db;
  /** The database the app under test uses; a spec that starts its own app instance sets it. */
  databaseUrl: string | undefined;
};

type TestFixtures = {
  /** Creates a fresh account of the given role, unique to this test. */
  createUser: (role?: Role, name?: string) => Promise<TestUser>;
  /**
   * A new browser context signed in as a fresh user by a session cookie, open on /chat. For
   * every test that is not about signing in: the sign-in page costs a form, a password hash
   * check and two redirects per person, and counts towards the sign-in throttle.
   */
  signInAs: (role?: Role, name?: string) => Promise<SignedIn>;
  /** The same, signed in through the real sign-in page: for the tests of signing in. */
  signInThroughPage: (role?: Role, name?: string) => Promise<SignedIn>;
  loginPage: LoginPage;
  shell: AppShell;
  /**
   * Runs axe on every page of the app the test's pages reach, and fails the test on any serious
   * or critical violation. The pages of `page`, `signInAs` and `signInThroughPage` are watched.
   */
  axe: AxeWatch;
};

let counter = 0;

async function signInThroughPage(browser: Browser, axe: AxeWatch, user: TestUser): Promise<SignedIn> {
  const context = await browser.newContext();
  axe.watchContext(context);
  const page = await context.newPage();
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(user.email, user.password);
  // The home page sends a reviewer with something waiting to the inbox, everyone else to the chat.
  await expect(page).toHaveURL(/\/(chat|inbox)/);
  const shell = new AppShell(page);
  await shell.expectSignedIn(user.name, user.role);
  return { user, context, page, shell };
}

async function signInByCookie(
  browser: Browser,
  axe: AxeWatch,
  db: Db,
  baseURL: string,
  user: TestUser,
): Promise<SignedIn> {
  const context = await browser.newContext();
  axe.watchContext(context);
  await addSessionCookie(context, { db, userId: user.id, baseURL });
  const page = await context.newPage();
  await page.goto("/chat");
  const shell = new AppShell(page);
  await shell.expectSignedIn(user.name, user.role);
  return { user, context, page, shell };
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  databaseUrl: [process.env.E2E_DATABASE_URL, { option: true, scope: "worker" }],

  db: [
    async ({ databaseUrl }, use) => {
      // Imported here, not at the top: the runner also loads this file to list the tests, and
      // only the workers resolve lib/db's server-only marker (see playwright.config.ts).
      const { createDb } = await import("@/lib/db/sql/client");
      const db = createDb({ url: databaseUrl });
      await use(db);
      await db.$disconnect();
    },
    { scope: "worker" },
  ],

  createUser: async ({ db }, use, testInfo) => {
    await use(async (role = "user", name) => {
      counter += 1;
      const tag = `${testInfo.workerIndex}-${counter}-${randomBytes(3).toString("hex")}`;
      const password = `pw-${randomBytes(8).toString("hex")}`;
      const email = `${role}-${tag}@e2e.test`;
      const displayName = name ?? `${role[0]!.toUpperCase()}${role.slice(1)} ${tag}`;
      const stored = await upsertUserByEmail({
        db,
        email,
        name: displayName,
        role,
        passwordHash: await hashPassword(password),
      });
      return { id: stored.id, email, name: displayName, role, password };
    });
  },

  axe: async ({ baseURL }, use) => {
    const watch = new AxeWatch(new URL(baseURL!).origin);
    await use(watch);
    expect(watch.findings, `serious or critical accessibility violations:\n${watch.describe()}`).toEqual([]);
  },

  page: async ({ page, axe }, use) => {
    axe.watchPage(page);
    await use(page);
    await axe.checkOpenPages();
  },

  signInAs: async ({ browser, createUser, db, baseURL, axe }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (role = "user", name) => {
      const signedIn = await signInByCookie(browser, axe, db, baseURL!, await createUser(role, name));
      contexts.push(signedIn.context);
      return signedIn;
    });
    await axe.checkOpenPages();
    for (const context of contexts) await context.close();
  },

  signInThroughPage: async ({ browser, createUser, axe }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (role = "user", name) => {
      const signedIn = await signInThroughPage(browser, axe, await createUser(role, name));
      contexts.push(signedIn.context);
      return signedIn;
    });
    await axe.checkOpenPages();
    for (const context of contexts) await context.close();
  },

  loginPage: async ({ page }, use) => {
    await use(new LoginPage(page));
  },

  shell: async ({ page }, use) => {
    await use(new AppShell(page));
  },
});

export { expect };
