"use server";

import { serveAction } from "@/app/_lib/serve-action";
import { addRemoteServer, removeRemoteServer, setRemoteServerDisabled } from "../../_lib/manage-mcp-servers";
import { mcpServerDeps } from "./mcp-server-deps";

/** Adds a remote MCP server; its tools are offered from the next run on. */
export const addMcpServerAction = serveAction(addRemoteServer, mcpServerDeps);

export const setMcpServerDisabledAction = serveAction(setRemoteServerDisabled);

export const removeMcpServerAction = serveAction(removeRemoteServer);
