import { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbClient } from "@/lib/db/db-types";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import { upsertUserByEmail } from "@/lib/db/users";
import { createAuthConfig } from "./auth-config";
import { ACCOUNT_LIMIT, ADDRESS_LIMIT, countSignInAttempt, describeRetryAfter } from "./login-throttle";
import { hashPassword } from "./verify-credentials";

// Sign-ins through next-auth's real Credentials endpoint on a real database, as two app
// instances would send them: each instance has its own next-auth and its own database client.

const ORIGIN = "http://localhost:3998";
const env = { AUTH_SECRET: "throttle-test-secret-0123456789abcdef", TOOLNEXUS_DEMO: "1" };
const PASSWORD = "right-password-1";

type Instance = ReturnType<typeof NextAuth>;

function cookiesOf(response: Response, previous = ""): string {
  const pairs = response.headers.getSetCookie().map((cookie) => cookie.split(";", 1)[0]!);
  return [previous, ...pairs].filter(Boolean).join("; ");
}

async function attempt(instance: Instance, email: string, password: string, address: string) {
  const csrf = await instance.handlers.GET(new NextRequest(`${ORIGIN}/api/auth/csrf`));
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await instance.handlers.POST(
    new NextRequest(`${ORIGIN}/api/auth/callback/credentials`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: cookiesOf(csrf),
        "x-forwarded-for": address,
      },
      body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${ORIGIN}/chat` }),
    }),
  );
  const location = response.headers.get("location") ?? "";
  const signedIn = /authjs\.session-token=/.test(cookiesOf(response));
  if (signedIn) return "signed-in";
  if (location.includes("code=throttled")) return "throttled";
  if (location.includes("error=CredentialsSignin")) return "wrong";
  return `unexpected ${response.status} ${location}`;
}

describe.each<TestProvider>(["sqlite", "postgres"])("login throttling on %s", (provider) => {
  let database: TestDatabase;
  let first: Instance;
  let second: Instance;
  let n = 0;
  const newAccount = async (): Promise<string> => {
    n += 1;
    const email = `person-${n}@example.test`;
    await upsertUserByEmail({ db: database.db, email, name: `P${n}`, role: "user", passwordHash });
    return email;
  };
  let passwordHash: string;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    passwordHash = await hashPassword(PASSWORD);
    const other: DbClient = database.connect();
    first = NextAuth(createAuthConfig({ db: () => database.db, env }));
    second = NextAuth(createAuthConfig({ db: () => other, env }));
  });

  afterAll(async () => {
    await database.drop();
  });

  it("refuses an account after its limit of wrong passwords, across instances, even the right one", async () => {
    const email = await newAccount();
    for (let index = 0; index < ACCOUNT_LIMIT.points; index += 1) {
      const instance = index % 2 === 0 ? first : second;
      expect(await attempt(instance, email, "wrong", `203.0.113.${index + 1}`)).toBe("wrong");
    }
    expect(await attempt(first, email, PASSWORD, "198.51.100.7")).toBe("throttled");
    expect(await attempt(second, email, PASSWORD, "198.51.100.8")).toBe("throttled");
    // Other accounts from the same addresses are not affected.
    expect(await attempt(first, await newAccount(), PASSWORD, "203.0.113.1")).toBe("signed-in");
  });

  it("treats an unknown email exactly like a known one", async () => {
    const known = await newAccount();
    const unknown = `nobody-${n}@example.test`;
    const answers = { known: [] as string[], unknown: [] as string[] };
    for (let index = 0; index <= ACCOUNT_LIMIT.points; index += 1) {
      answers.known.push(await attempt(first, known, "wrong", "192.0.2.10"));
      answers.unknown.push(await attempt(first, unknown, "wrong", "192.0.2.11"));
    }
    expect(answers.unknown).toEqual(answers.known);
    expect(answers.known.at(-1)).toBe("throttled");
  });

  it("counts a burst of parallel guesses", async () => {
    const email = await newAccount();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        attempt(index % 2 ? first : second, email, "wrong", "192.0.2.50"),
      ),
    );
    expect(answers.filter((answer) => answer === "wrong")).toHaveLength(ACCOUNT_LIMIT.points);
    expect(await attempt(first, email, PASSWORD, "192.0.2.51")).toBe("throttled");
  });

  it("a correct password starts the account's count afresh", async () => {
    const email = await newAccount();
    for (let index = 0; index < ACCOUNT_LIMIT.points - 1; index += 1) {
      expect(await attempt(first, email, "wrong", "192.0.2.20")).toBe("wrong");
    }
    expect(await attempt(first, email, PASSWORD, "192.0.2.20")).toBe("signed-in");
    for (let index = 0; index < ACCOUNT_LIMIT.points - 1; index += 1) {
      expect(await attempt(second, email, "wrong", "192.0.2.20")).toBe("wrong");
    }
    expect(await attempt(second, email, PASSWORD, "192.0.2.20")).toBe("signed-in");
  });

  it("refuses an address that tries many accounts, and only that address", async () => {
    const address = "198.18.0.1";
    for (let index = 0; index < ADDRESS_LIMIT.points; index += 1) {
      expect(await attempt(index % 2 ? first : second, `spray-${index}@example.test`, "wrong", address)).toBe(
        "wrong",
      );
    }
    const victim = await newAccount();
    expect(await attempt(first, victim, PASSWORD, address)).toBe("throttled");
    expect(await attempt(first, victim, PASSWORD, "198.18.0.2")).toBe("signed-in");
  });

  it("says how long to wait", async () => {
    const email = `waiting-${n}@example.test`;
    let decision = await countSignInAttempt({ db: database.db, email, address: "192.0.2.99" });
    for (let index = 0; index < ACCOUNT_LIMIT.points; index += 1) {
      decision = await countSignInAttempt({ db: database.db, email, address: "192.0.2.99" });
    }
    expect(decision.status).toBe("throttled");
    if (decision.status !== "throttled") return;
    expect(decision.retryAfterSeconds).toBeGreaterThan(ACCOUNT_LIMIT.durationSeconds - 60);
    expect(decision.retryAfterSeconds).toBeLessThanOrEqual(ACCOUNT_LIMIT.durationSeconds);
  });
});

describe("describeRetryAfter", () => {
  it("rounds up to whole minutes, or seconds under a minute", () => {
    expect(describeRetryAfter(1)).toBe("Too many sign-in attempts. Try again in 1 second.");
    expect(describeRetryAfter(45)).toBe("Too many sign-in attempts. Try again in 45 seconds.");
    expect(describeRetryAfter(61)).toBe("Too many sign-in attempts. Try again in 2 minutes.");
    expect(describeRetryAfter(900)).toBe("Too many sign-in attempts. Try again in 15 minutes.");
  });
});
