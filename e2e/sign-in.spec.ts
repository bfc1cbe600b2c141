import { DEMO_PASSWORD } from "@/lib/auth/demo-accounts";
import { expect, test } from "./fixtures";

test.describe("sign-in", () => {
  test("a demo user signs in from the page that lists the demo accounts and sees the shell", {
    tag: "@phone",
  }, async ({ page, loginPage, shell }) => {
    await loginPage.goto();
    await expect(loginPage.demoAccounts).toContainText("alice@example.com");
    await expect(loginPage.demoAccounts).toContainText(DEMO_PASSWORD);

    await loginPage.signIn("alice@example.com", DEMO_PASSWORD);
    await expect(page).toHaveURL(/\/chat/);
    await shell.expectSignedIn("Alice", "user");
    await shell.openMenu();
    for (const name of ["Chat", "Inbox", "Settings"] as const) await expect(shell.link(name)).toBeVisible();
    await expect(shell.nav).toContainText("Demo model");

    await shell.link("Settings").click();
    await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
    await expect(page.getByText("alice@example.com")).toBeVisible();

    await shell.signOut();
    await page.goto("/settings");
    await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fsettings/);
  });

  test("a wrong password shows a clear error and no session", async ({ page, loginPage, createUser }) => {
    const user = await createUser("reviewer");
    await loginPage.goto();
    await loginPage.signIn(user.email, `${user.password}-wrong`);
    await expect(loginPage.error).toHaveText("Wrong email or password.");
    await expect(page).toHaveURL(/\/login/);
    await expect(loginPage.email).toHaveValue(user.email);

    await page.goto("/settings");
    await expect(page).toHaveURL(/\/login/);
  });

  test("an empty or malformed form shows field errors", async ({ loginPage }) => {
    await loginPage.goto();
    await loginPage.submit.click();
    await expect(loginPage.fieldError("email")).toHaveText("Enter your email address.");
    await expect(loginPage.fieldError("password")).toHaveText("Enter your password.");

    await loginPage.signIn("not-an-email", "x");
    await expect(loginPage.fieldError("email")).toHaveText("Enter a valid email address.");
    await expect(loginPage.fieldError("password")).toHaveCount(0);
  });

  test("a signed-out visit goes to sign-in and returns to the page afterwards", async ({
    page,
    loginPage,
    createUser,
    shell,
  }) => {
    const reviewer = await createUser("reviewer", "Rhea Reviewer");
    await page.goto("/settings");
    await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fsettings$/);

    await loginPage.signIn(reviewer.email, reviewer.password);
    await expect(page).toHaveURL(/\/settings$/);
    await shell.expectSignedIn("Rhea Reviewer", "reviewer");
  });

  test("the sign-in page never redirects off-site after signing in", async ({
    page,
    loginPage,
    createUser,
  }) => {
    const user = await createUser();
    await loginPage.goto("https://evil.example/phish");
    await loginPage.signIn(user.email, user.password);
    await expect(page).toHaveURL(/localhost:\d+\/chat/);
  });

  test("two people sign in side by side in separate contexts", async ({ signInThroughPage }) => {
    const alice = await signInThroughPage("user", "Ann User");
    const rita = await signInThroughPage("reviewer", "Rob Reviewer");
    await alice.page.reload();
    await alice.shell.expectSignedIn("Ann User", "user");
    await rita.shell.expectSignedIn("Rob Reviewer", "reviewer");
  });
});
