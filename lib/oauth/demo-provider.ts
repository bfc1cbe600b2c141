import { generateKeyPairSync, randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import Provider, { type Configuration, errors, type KoaContextWithOIDC } from "oidc-provider";
import { createDemoMcpResource, TRANSACTIONS_SCOPE } from "./demo-mcp-resource";
import { consentPage, errorPage, loginPage } from "./demo-provider-pages";
import { DEMO_CLIENT_ID, DEMO_DEFAULT_CLIENT_SECRET } from "./provider-registry";

/** The scope the balance API requires. */
export const BALANCE_SCOPE = "balance:read";

interface DemoAccount {
  id: string;
  password: string;
  name: string;
  balance: { amount: number; currency: string };
}

const ACCOUNTS: Record<string, DemoAccount> = {
  demo: { id: "demo", password: "demo", name: "Dana Demo", balance: { amount: 1234.56, currency: "EUR" } },
  // A second customer, so two people signed in to one server can be told apart.
  alex: { id: "alex", password: "alex", name: "Alex Example", balance: { amount: 87.5, currency: "EUR" } },
};

export interface DemoProviderOptions {
  /** Public origin of the provider, e.g. `http://localhost:3001`. */
  issuer: string;
  /** The app's callback URLs that may receive codes. */
  redirectUris: string[];
  clientId?: string;
  clientSecret?: string;
  /** Seconds; short values let tests exercise refresh. */
  accessTokenTtl?: number;
  /** The resource the MCP server's metadata advertises (tests give a wrong one); default its own URL. */
  mcpAdvertisedResource?: string;
  /** The MCP server answers nothing, not even its tool list, without a token. */
  mcpProtectAll?: boolean;
}

export interface DemoProvider {
  provider: Provider;
  /** The resource (audience) of the balance API. */
  apiResource: string;
  /** The resource of the demo bank's MCP server, `<issuer>/mcp`. */
  mcpResource: string;
  handle(req: IncomingMessage, res: ServerResponse): void;
}

export function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { "content-type": type, "cache-control": "no-store", ...headers });
  res.end(body);
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = "";
  for await (const chunk of req) {
    body += chunk;
    if (body.length > 10_000) throw new Error("form too large");
  }
  return new URLSearchParams(body);
}

export function createDemoProvider(options: DemoProviderOptions): DemoProvider {
  const issuer = options.issuer.replace(/\/$/, "");
  const apiResource = `${issuer}/api`;
  const mcpResource = `${issuer}/mcp`;
  const accessTokenTTL = options.accessTokenTtl ?? 600;
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });

  const configuration: Configuration = {
    clients: [
      {
        client_id: options.clientId ?? DEMO_CLIENT_ID,
        client_secret: options.clientSecret ?? DEMO_DEFAULT_CLIENT_SECRET,
        client_name: "toolnexus",
        redirect_uris: options.redirectUris,
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: "jwk" }), kid: "demo-1", use: "sig", alg: "RS256" }] },
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    scopes: ["openid", BALANCE_SCOPE, TRANSACTIONS_SCOPE],
    claims: { openid: ["sub"], profile: ["name"] },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      // MCP clients register themselves (RFC 7591), as the MCP authorization spec suggests.
      registration: { enabled: true },
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      resourceIndicators: {
        enabled: true,
        // Every authorization is for the balance API, so clients need not send `resource`.
        defaultResource: async () => apiResource,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, indicator) => {
          if (indicator === mcpResource) {
            return {
              scope: TRANSACTIONS_SCOPE,
              audience: mcpResource,
              accessTokenTTL,
              accessTokenFormat: "opaque",
            };
          }
          if (indicator !== apiResource) throw new errors.InvalidTarget();
          return { scope: BALANCE_SCOPE, audience: apiResource, accessTokenTTL, accessTokenFormat: "opaque" };
        },
      },
    },
    // Without offline_access the default would not issue refresh tokens; the demo should.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    ttl: {
      AccessToken: accessTokenTTL,
      AuthorizationCode: 120,
      Grant: 14 * 24 * 3600,
      IdToken: 3600,
      Interaction: 3600,
      RefreshToken: 14 * 24 * 3600,
      Session: 24 * 3600,
    },
    interactions: { url: async (_ctx: KoaContextWithOIDC, interaction) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx, sub) => {
      const account = ACCOUNTS[sub];
      if (!account) return undefined;
      return { accountId: sub, claims: async () => ({ sub, name: account.name }) };
    },
    renderError: async (ctx, out) => {
      ctx.type = "html";
      ctx.body = errorPage(out.error_description ?? out.error);
    },
  };

  const provider = new Provider(issuer, configuration);
  const oidcHandler = provider.callback();
  const mcp = createDemoMcpResource({
    issuer,
    provider,
    ...(options.mcpAdvertisedResource ? { advertisedResource: options.mcpAdvertisedResource } : {}),
    ...(options.mcpProtectAll ? { protectAll: true } : {}),
  });

  async function interaction(
    req: IncomingMessage,
    res: ServerResponse,
    uid: string,
    action: string | undefined,
  ) {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid)
      return send(res, 400, "text/html", errorPage("This sign-in page is out of date."));
    const client = await provider.Client.find(String(details.params.client_id));
    const clientName = client?.clientName ?? String(details.params.client_id);
    const prompt = details.prompt;

    if (req.method === "GET" && action === undefined) {
      if (prompt.name === "login") return send(res, 200, "text/html", loginPage({ uid, clientName }));
      const account = ACCOUNTS[details.session?.accountId ?? ""];
      const scopes = String(details.params.scope ?? "")
        .split(" ")
        .filter(Boolean);
      return send(
        res,
        200,
        "text/html",
        consentPage({ uid, clientName, accountName: account?.name ?? "?", scopes }),
      );
    }
    if (req.method !== "POST") return send(res, 405, "text/plain", "method not allowed");

    if (action === "abort") {
      return provider.interactionFinished(
        req,
        res,
        { error: "access_denied", error_description: "The user denied access" },
        { mergeWithLastSubmission: false },
      );
    }
    if (action === "login") {
      const form = await readForm(req);
      const account = ACCOUNTS[form.get("username") ?? ""];
      if (!account || account.password !== form.get("password")) {
        return send(
          res,
          200,
          "text/html",
          loginPage({ uid, clientName, error: "Wrong username or password." }),
        );
      }
      return provider.interactionFinished(
        req,
        res,
        { login: { accountId: account.id } },
        { mergeWithLastSubmission: false },
      );
    }
    if (action === "confirm" && prompt.name === "consent") {
      const accountId = details.session?.accountId;
      if (!accountId) return send(res, 400, "text/html", errorPage("Sign in first."));
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : new provider.Grant({ accountId, clientId: String(details.params.client_id) });
      if (!grant) return send(res, 400, "text/html", errorPage("This authorization is no longer valid."));
      const missing = prompt.details as {
        missingOIDCScope?: string[];
        missingOIDCClaims?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
        grant.addResourceScope(resource, scopes.join(" "));
      }
      const grantId = await grant.save();
      return provider.interactionFinished(
        req,
        res,
        { consent: { grantId } },
        { mergeWithLastSubmission: true },
      );
    }
    return send(res, 400, "text/html", errorPage("Unknown step."));
  }

  async function balance(req: IncomingMessage, res: ServerResponse) {
    const challenge = { "www-authenticate": 'Bearer error="invalid_token"' };
    const match = /^Bearer (.+)$/.exec(req.headers.authorization ?? "");
    const token = match ? await provider.AccessToken.find(match[1]!) : undefined;
    const audience = token ? [token.aud].flat() : [];
    if (!token || token.isExpired || !audience.includes(apiResource) || !token.scopes.has(BALANCE_SCOPE)) {
      return send(res, 401, "application/json", JSON.stringify({ error: "invalid_token" }), challenge);
    }
    const account = ACCOUNTS[token.accountId];
    if (!account)
      return send(res, 401, "application/json", JSON.stringify({ error: "invalid_token" }), challenge);
    send(res, 200, "application/json", JSON.stringify({ account: account.name, ...account.balance }));
  }

  function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", issuer);
    const interactionMatch = /^\/interaction\/([\w-]+)(?:\/(login|confirm|abort))?$/.exec(url.pathname);
    let work: Promise<unknown> | undefined;
    if (interactionMatch) work = interaction(req, res, interactionMatch[1]!, interactionMatch[2]);
    else if (url.pathname === "/api/balance" && req.method === "GET") work = balance(req, res);
    else work = mcp.handle(req, res, url.pathname);
    if (!work) {
      oidcHandler(req, res);
      return;
    }
    work.catch((error: unknown) => {
      if (res.headersSent) return res.end();
      const message =
        error instanceof errors.SessionNotFound
          ? "This sign-in has expired; start again from the app."
          : "Unexpected error.";
      send(res, 400, "text/html", errorPage(message));
    });
  }

  return { provider, apiResource, mcpResource, handle };
}
