import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  ElicitResultSchema,
  type ServerNotification,
  type ServerRequest,
  UrlElicitationRequiredError,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Ticket, TicketStore } from "./ticket-store";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
type Elicitation =
  | { mode?: "form"; message: string; requestedSchema: Record<string, unknown> }
  | { mode: "url"; message: string; url: string; elicitationId: string };

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
const failure = (value: string) => ({ ...text(value), isError: true });

async function ask(extra: Extra, params: Elicitation) {
  // Sent as part of the tool call, so over HTTP it travels on that call's own stream.
  return extra.sendRequest({ method: "elicitation/create", params } as never, ElicitResultSchema, {
    timeout: 24 * 60 * 60 * 1000,
  });
}

const line = (t: Ticket) => `#${t.id} [${t.status}] (${t.priority}) ${t.title}`;

export const openTicketForm = {
  type: "object",
  properties: {
    title: { type: "string", title: "Title", minLength: 3, maxLength: 120 },
    priority: { type: "string", title: "Priority", enum: ["low", "normal", "high"], default: "normal" },
    description: { type: "string", title: "Description" },
  },
  required: ["title", "priority"],
};

/** The tracker's tools: what the app's demo offers through TOOLNEXUS_MCP_CONFIG. */
export function registerTicketTools(server: McpServer, store: TicketStore, linkUrl: string): void {
  server.registerTool(
    "list_tickets",
    {
      title: "List tickets",
      description: "List the tracker's tickets, optionally only open or closed ones",
      inputSchema: { status: z.enum(["open", "closed", "all"]).optional() },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ status }) => {
      const tickets = store.read().tickets.filter((t) => !status || status === "all" || t.status === status);
      return text(tickets.length === 0 ? "No tickets." : tickets.map(line).join("\n"));
    },
  );

  server.registerTool(
    "delete_ticket",
    {
      title: "Delete a ticket",
      description: "Delete a ticket for good",
      inputSchema: { id: z.number().int().positive() },
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ id }) =>
      store.update((state) => {
        const before = state.tickets.length;
        state.tickets = state.tickets.filter((t) => t.id !== id);
        return before === state.tickets.length
          ? failure(`There is no ticket #${id}`)
          : text(`Deleted ticket #${id}`);
      }),
  );

  server.registerTool(
    "open_ticket",
    {
      title: "Open a ticket",
      description: "Open a new ticket; asks the user for any detail not given",
      inputSchema: {
        title: z.string().optional(),
        priority: z.enum(["low", "normal", "high"]).optional(),
        description: z.string().optional(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    async (args, extra) => {
      let details = args;
      if (!args.title || !args.priority) {
        const answer = await ask(extra, {
          mode: "form",
          message: "Which ticket should be opened?",
          requestedSchema: openTicketForm,
        });
        if (answer.action !== "accept") return text(`No ticket opened (the user chose ${answer.action}).`);
        details = { ...args, ...(answer.content as typeof args) };
      }
      const ticket = store.update((state) => {
        const created: Ticket = {
          id: state.nextId,
          title: String(details.title),
          priority: details.priority ?? "normal",
          status: "open",
          ...(details.description ? { description: details.description } : {}),
        };
        state.nextId += 1;
        state.tickets.push(created);
        return created;
      });
      return { ...text(`Opened ${line(ticket)}`), structuredContent: { ticket } };
    },
  );

  server.registerTool(
    "close_ticket",
    {
      title: "Close a ticket",
      description: "Close a ticket; asks for the resolution, then for a confirmation",
      inputSchema: { id: z.number().int().positive() },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    },
    async ({ id }, extra) => {
      const ticket = store.read().tickets.find((t) => t.id === id);
      if (!ticket) return failure(`There is no ticket #${id}`);
      const resolution = await ask(extra, {
        mode: "form",
        message: `How was ticket #${id} resolved?`,
        requestedSchema: {
          type: "object",
          properties: { resolution: { type: "string", enum: ["fixed", "wontfix", "duplicate"] } },
          required: ["resolution"],
        },
      });
      if (resolution.action !== "accept") return text(`Ticket #${id} stays open.`);
      const chosen = String(resolution.content?.resolution);
      const confirm = await ask(extra, {
        mode: "form",
        message: `Close ticket #${id} as ${chosen}?`,
        requestedSchema: {
          type: "object",
          properties: { confirm: { type: "boolean" } },
          required: ["confirm"],
        },
      });
      if (confirm.action !== "accept" || confirm.content?.confirm !== true)
        return text(`Ticket #${id} stays open.`);
      store.update((state) => {
        const stored = state.tickets.find((t) => t.id === id);
        if (stored) Object.assign(stored, { status: "closed", resolution: chosen });
      });
      return text(`Closed ticket #${id} as ${chosen}`);
    },
  );

  server.registerTool(
    "link_account",
    {
      title: "Link your tracker account",
      description: "Link the user's tracker account through a page in their browser",
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    async (extra) => {
      const answer = await ask(extra, {
        mode: "url",
        message: "Link your tracker account in the browser",
        url: linkUrl,
        elicitationId: `link-${Date.now().toString(36)}`,
      });
      if (answer.action !== "accept") return text(`The account was not linked (${answer.action}).`);
      store.update((state) => {
        state.linked = true;
      });
      return text("Your tracker account is linked.");
    },
  );

  server.registerTool(
    "export_tickets",
    {
      title: "Export tickets",
      description: "Export every ticket to the user's drive; needs a one-time authorization in the browser",
      inputSchema: { format: z.enum(["csv", "json"]).default("csv") },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ format }) => {
      // The spec's error path: the first call fails with -32042; the same call again, once the
      // user is done at the URL, goes through. The mark lives in the store, so a restart of
      // either side does not ask twice.
      const asked = store.read().exportsAsked.includes(format);
      if (!asked) {
        store.update((state) => {
          state.exportsAsked.push(format);
        });
        throw new UrlElicitationRequiredError(
          [
            {
              mode: "url",
              message: "Authorize the export to your drive",
              url: `${linkUrl}?export=${format}`,
              elicitationId: `export-${format}`,
            },
          ],
          "The export needs your authorization in the browser",
        );
      }
      store.update((state) => {
        state.exportsAsked = state.exportsAsked.filter((f) => f !== format);
      });
      return text(`Exported ${store.read().tickets.length} tickets as ${format}.`);
    },
  );
}
