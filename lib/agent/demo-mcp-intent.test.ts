import { describe, expect, it } from "vitest";
import { parseDemoIntent } from "./demo-intent";
import { DEMO_HELP, demoHelp } from "./demo-model";

describe("the demo model's MCP requests", () => {
  it("reads the ticket tracker's three requests", () => {
    expect(parseDemoIntent("list my tickets")).toMatchObject({ tool: "tickets_list_tickets", args: {} });
    expect(parseDemoIntent("Show all open tickets")).toMatchObject({ tool: "tickets_list_tickets" });
    expect(parseDemoIntent("delete ticket 7")).toMatchObject({
      tool: "tickets_delete_ticket",
      args: { id: 7 },
    });
    expect(parseDemoIntent("please remove ticket #12")).toMatchObject({ args: { id: 12 } });
    expect(parseDemoIntent("open a ticket")).toMatchObject({ tool: "tickets_open_ticket", args: {} });
    expect(parseDemoIntent("create a new ticket")).toMatchObject({ tool: "tickets_open_ticket" });
  });

  it("calls any tool by name, with JSON arguments", () => {
    expect(parseDemoIntent("call everything_echo")).toEqual({
      kind: "call",
      tool: "everything_echo",
      args: {},
      preface: "Calling everything_echo.",
    });
    expect(parseDemoIntent('call everything_echo {"message": "hi"}')).toMatchObject({
      tool: "everything_echo",
      args: { message: "hi" },
    });
    // Arguments that are not a JSON object are not a call; the model answers with help.
    expect(parseDemoIntent("call everything_echo [1]")).toEqual({ kind: "help" });
    expect(parseDemoIntent("call everything_echo {nope}")).toEqual({ kind: "help" });
  });

  it("leaves the other requests alone", () => {
    expect(parseDemoIntent("deploy v1.4 to production")).toMatchObject({ kind: "deploy" });
    expect(parseDemoIntent("ask me a question")).toMatchObject({ kind: "question" });
  });
});

describe("demoHelp", () => {
  const spec = (name: string, description = "") => ({ name, description, inputSchema: {} });

  it("is the plain help when no MCP tool is connected", () => {
    expect(demoHelp([spec("deploy"), spec("question"), spec("get_balance")])).toBe(DEMO_HELP);
  });

  it("lists every MCP tool by name, and the ticket sentences when the tracker is there", () => {
    const help = demoHelp([
      spec("deploy"),
      spec("tickets_list_tickets", "List the tickets\nwith more detail"),
      spec("tickets_delete_ticket", "Delete a ticket"),
      spec("tickets_open_ticket", "Open a ticket"),
      spec("everything_echo", "Echoes back the input"),
    ]);
    expect(help.startsWith(DEMO_HELP)).toBe(true);
    expect(help).toContain("“list my tickets”");
    expect(help).toContain("“delete ticket 7”");
    expect(help).toContain("“open a ticket”");
    expect(help).toContain("• tickets_list_tickets — List the tickets\n");
    expect(help).toContain("• everything_echo — Echoes back the input");
    expect(help).not.toContain("• deploy —");
  });

  it("names the shell sentence when bash is switched on, and never lists a built-in as an MCP tool", () => {
    const help = demoHelp([spec("deploy"), spec("bash", "Run a shell command"), spec("webfetch", "Fetch")]);
    expect(help).toContain("“run `date` in the shell”");
    expect(help).not.toContain("MCP servers");
    expect(help).not.toContain("• webfetch");
  });
});
