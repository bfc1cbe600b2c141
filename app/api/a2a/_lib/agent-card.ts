import "server-only";
import { A2A_PROTOCOL_VERSION, AgentCard } from "@a2a-js/sdk";
import { A2A_LEGACY_PROTOCOL_VERSION, duplicateInterfacesForLegacy } from "@a2a-js/sdk/compat/v0_3";
import { listAgentSkills } from "@/lib/agent/agent-tool-catalog";
import type { DbClient } from "@/lib/db/db-types";
import { appBaseUrl } from "@/lib/oauth/app-url";

// The agent card at /.well-known/agent-card.json (ADR 0084): who the agent is, what its tools
// do, where to send JSON-RPC (v1.0, and v0.3 for older peers), and that every call needs a
// personal API token with the `a2a` scope.

export const A2A_PATH = "/api/a2a";
export const A2A_SCOPE = "a2a";
const APP_VERSION = "0.1.0";

export async function buildAgentCard({ db, baseUrl = appBaseUrl() }: { db: DbClient; baseUrl?: string }) {
  const skills = await listAgentSkills({ db });
  const url = `${baseUrl}${A2A_PATH}`;
  const v1 = { url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: A2A_PROTOCOL_VERSION };
  const card: AgentCard = {
    name: "toolnexus",
    description:
      "The toolnexus agent: it runs your task with the app's tools, and when a tool needs a person (an approval, a question, a form, a sign-in) the task is input-required until someone answers, over A2A or in the app's inbox.",
    supportedInterfaces: duplicateInterfacesForLegacy([v1], ["JSONRPC"]),
    provider: undefined,
    version: APP_VERSION,
    capabilities: { streaming: true, pushNotifications: true, extensions: [], extendedAgentCard: false },
    securitySchemes: {
      bearer: {
        scheme: {
          $case: "httpAuthSecurityScheme",
          value: {
            description: `A personal API token made at ${baseUrl}/settings/tokens with the "${A2A_SCOPE}" scope.`,
            scheme: "Bearer",
            bearerFormat: "toolnexus API token",
          },
        },
      },
    },
    securityRequirements: [{ schemes: { bearer: { list: [A2A_SCOPE] } } }],
    defaultInputModes: ["text/plain", "application/json"],
    defaultOutputModes: ["text/plain", "application/json"],
    skills: skills.map((skill) => ({
      id: skill.name,
      name: skill.title,
      description: skill.description,
      tags: [skill.source],
      examples: [],
      inputModes: [],
      outputModes: [],
      securityRequirements: [],
    })),
    signatures: [],
  };
  return card;
}

/**
 * The same card in A2A v0.3's shape, for a peer that asks for v0.3 or names no version (as the
 * SDK's own card handler does with its compatibility layer on): one URL, its transport, and the
 * security scheme as v0.3 wrote it.
 */
export function legacyAgentCard(card: AgentCard): Record<string, unknown> {
  const legacy = card.supportedInterfaces.find((i) => i.protocolVersion === A2A_LEGACY_PROTOCOL_VERSION);
  return {
    protocolVersion: "0.3.0",
    name: card.name,
    description: card.description,
    url: legacy?.url ?? card.supportedInterfaces[0]?.url,
    preferredTransport: "JSONRPC",
    version: card.version,
    capabilities: { streaming: true, pushNotifications: true },
    securitySchemes: {
      bearer: { type: "http", scheme: "bearer", description: securityDescription(card) },
    },
    security: [{ bearer: [A2A_SCOPE] }],
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    skills: card.skills.map(({ id, name, description, tags }) => ({ id, name, description, tags })),
  };
}

function securityDescription(card: AgentCard): string {
  const scheme = card.securitySchemes.bearer?.scheme;
  return scheme?.$case === "httpAuthSecurityScheme" ? scheme.value.description : "";
}

/** The card as JSON for whoever asks: v1.0 when the A2A-Version header says so, else v0.3. */
export function agentCardJson(card: AgentCard, requestedVersion: string | null): unknown {
  return (requestedVersion ?? A2A_LEGACY_PROTOCOL_VERSION) === A2A_LEGACY_PROTOCOL_VERSION
    ? legacyAgentCard(card)
    : AgentCard.toJSON(card);
}
