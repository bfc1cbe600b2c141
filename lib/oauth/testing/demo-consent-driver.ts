// Walks the demo provider's login and consent pages over plain HTTP, the way a browser would,
// so integration tests can obtain real codes and errors without a browser.

export type ConsentDecision = "allow" | "deny";

class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      this.cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1));
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

async function step(jar: CookieJar, url: string, form?: Record<string, string>): Promise<Response> {
  const response = await fetch(url, {
    method: form ? "POST" : "GET",
    redirect: "manual",
    headers: {
      cookie: jar.header(),
      ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
    },
    ...(form ? { body: new URLSearchParams(form).toString() } : {}),
  });
  jar.store(response);
  return response;
}

/**
 * Follows the flow from the authorization URL until the provider redirects to `redirectPrefix`,
 * signing in as the demo user and allowing or denying; returns that final callback URL.
 */
export async function completeDemoConsent(options: {
  authorizationUrl: string;
  redirectPrefix: string;
  decision: ConsentDecision;
  username?: string;
  password?: string;
}): Promise<URL> {
  const jar = new CookieJar();
  let url = options.authorizationUrl;
  for (let hops = 0; hops < 12; hops++) {
    if (url.startsWith(options.redirectPrefix)) return new URL(url);
    const page = new URL(url);
    const interaction = /^\/interaction\/([\w-]+)$/.exec(page.pathname);
    let response: Response;
    if (interaction) {
      const html = await (await step(jar, url)).text();
      if (html.includes('name="password"')) {
        response = await step(jar, `${page.origin}${page.pathname}/login`, {
          username: options.username ?? "demo",
          password: options.password ?? options.username ?? "demo",
        });
        if (response.status === 200) throw new Error("demo login was refused");
      } else if (options.decision === "allow") {
        response = await step(jar, `${page.origin}${page.pathname}/confirm`, {});
      } else {
        response = await step(jar, `${page.origin}${page.pathname}/abort`, {});
      }
    } else {
      response = await step(jar, url);
    }
    const location = response.headers.get("location");
    if (!location) throw new Error(`expected a redirect from ${url}, got ${response.status}`);
    url = new URL(location, url).toString();
  }
  throw new Error("too many redirects in the demo consent flow");
}
